/// How an item reached the queue. Credentials given on the command line are bound to what came
/// with them; what arrives later is judged by this (see `CredentialPolicy`).
public enum ItemArrival: String, Sendable, Equatable, CaseIterable {
    /// An input given on the command line itself.
    case commandLine
    /// An entry of a playlist given on the command line.
    case playlist
    /// Added while Reel runs: the control socket, MPRIS `OpenUri`, the window (open, drop), and
    /// the entries of playlists loaded that way.
    case control
}
