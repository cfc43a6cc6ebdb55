/// What a playlist panel shows for one queue item: a snapshot, safe to hand to a UI.
public struct QueueRow: Sendable, Equatable, Identifiable {
    public var id: QueueItem.ID
    public var index: Int
    public var title: String
    public var duration: Double?
    public var isCurrent: Bool
    public var state: QueueItemState
    /// The failed item's reason in plain words (redacted), for a tooltip; nil otherwise.
    public var failureMessage: String?

    public init(id: QueueItem.ID, index: Int, title: String, duration: Double?, isCurrent: Bool,
                state: QueueItemState, failureMessage: String?) {
        self.id = id
        self.index = index
        self.title = title
        self.duration = duration
        self.isCurrent = isCurrent
        self.state = state
        self.failureMessage = failureMessage
    }

    /// The duration as shown in a list ("4:05"), empty when unknown.
    public var durationText: String { duration.map { TimeFormat.clock($0) } ?? "" }
}
