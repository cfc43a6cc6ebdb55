/// Why an item or the queue ended, as the event stream says it (`end` and `finished` carry a
/// `reason`): the finish reasons of the seed players (PRXPlayer), which QA scripts rely on.
public enum EndReason: String, Sendable, Equatable, CaseIterable {
    /// Played to its end (for `finished`: the last item played).
    case ended
    /// Stopped by an error (for `finished`: the last item failed).
    case error
    /// The user quit (the `q` key, the window closed, the socket's or MPRIS's quit, SIGTERM).
    case userExited = "user-exited"
}
