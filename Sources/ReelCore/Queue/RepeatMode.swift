/// What a queue does when an item, or the whole queue, ends.
public enum RepeatMode: String, Sendable, Equatable, CaseIterable, Codable {
    /// Play through once and stop.
    case off = "none"
    /// Replay the current item when it ends (a user's next/previous still moves).
    case one
    /// Start again from the first item after the last (reshuffled when shuffle is on).
    case all
}
