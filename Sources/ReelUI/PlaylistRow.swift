/// One row of the playlist panel, as the queue describes it.
public struct PlaylistRow: Sendable, Equatable {
    public var title: String
    /// Seconds, nil when not known yet.
    public var duration: Double?
    public var isCurrent: Bool
    /// Plain words saying why the item failed; nil when it did not.
    public var failure: String?

    public init(title: String, duration: Double? = nil, isCurrent: Bool = false, failure: String? = nil) {
        self.title = title
        self.duration = duration
        self.isCurrent = isCurrent
        self.failure = failure
    }
}
