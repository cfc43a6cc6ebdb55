/// Where a queue item stands in the walk through a queue.
public enum QueueItemState: Sendable, Equatable {
    /// Not played yet (or skipped, or waiting for its next turn under repeat).
    case pending
    /// The item the player holds now.
    case current
    /// Played to its end (at least once in this walk).
    case played
    /// Failed with this error; the queue moved on.
    // Boxed: a pending item (nearly all of a long queue) does not carry an error's room inline.
    indirect case failed(PlaybackError)

    public var name: String {
        switch self {
        case .pending: "pending"
        case .current: "current"
        case .played: "played"
        case .failed: "failed"
        }
    }

    /// The error of a failed item.
    public var error: PlaybackError? {
        if case .failed(let error) = self { return error }
        return nil
    }
}
