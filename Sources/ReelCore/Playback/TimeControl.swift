/// The player's time control, gst-play.c's way: the user's intent (`desired_state`) kept apart
/// from the pipeline's state, and the status users see (`TimeControlStatus`, AVPlayer's) derived
/// from both and from the item, so it cannot drift. The engine owns one and sets what happened;
/// `update(item:)` says when the status changed.
public struct TimeControl: Sendable, Equatable {
    /// What the user asked for.
    public var intent: PlayIntent = .paused
    /// The state the pipeline has reached, and the one it was last asked for.
    public var pipelineState: PipelineTarget = .null
    public var requestedTarget: PipelineTarget = .null
    /// The playback rate (negative: backwards).
    public var rate: Double = 1
    /// The seek in flight was the user's (its landing is reported as such).
    public var seekIsUser = false
    /// A seek has landed but the pipeline has not yet returned to PLAYING: still "seeking".
    public var settlingAfterSeek = false
    /// The item waits for the network (`NetworkRule`): time control `waiting` (noNetwork).
    public var waitingForNetwork = false
    /// The status last derived (what observers were told).
    public private(set) var status: TimeControlStatus = .paused

    public init() {}

    /// What the derivation needs to know of the current item.
    public struct Item: Sendable, Equatable {
        public var loaded: Bool
        public var failed = false
        public var prerolled = false
        /// A seek is in flight (its target not yet reached).
        public var seeking = false
        /// The last buffering percentage below 100, nil when not buffering.
        public var bufferingPercent: Int?
        /// Live items never wait for buffering (their buffer is the window's edge).
        public var isLive = false

        public init(loaded: Bool, failed: Bool = false, prerolled: Bool = false, seeking: Bool = false,
                    bufferingPercent: Int? = nil, isLive: Bool = false) {
            self.loaded = loaded; self.failed = failed; self.prerolled = prerolled; self.seeking = seeking; self.bufferingPercent = bufferingPercent
            self.isLive = isLive
        }
    }

    /// The status for `item` given the intent and the pipeline's state.
    public func derive(_ item: Item) -> TimeControlStatus {
        guard item.loaded else {
            return intent == .playing ? .waitingToPlayAtSpecifiedRate(.noItem) : intent == .stopped ? .stopped : .paused
        }
        if waitingForNetwork && intent == .playing { return .waitingToPlayAtSpecifiedRate(.noNetwork) }
        if item.failed { return .paused }
        switch intent {
        case .stopped: return .stopped
        case .paused: return .paused
        case .playing: break
        }
        if !item.prerolled { return .waitingToPlayAtSpecifiedRate(.loading) }
        if item.seeking || (settlingAfterSeek && pipelineState != .playing) { return .waitingToPlayAtSpecifiedRate(.seeking) }
        if let p = item.bufferingPercent, p < 100, !item.isLive { return .waitingToPlayAtSpecifiedRate(.buffering(percent: p)) }
        return pipelineState == .playing ? .playing : .waitingToPlayAtSpecifiedRate(.loading)
    }

    /// Derives the status again; returns it when it changed (observers are to be told), nil when not.
    public mutating func update(item: Item) -> TimeControlStatus? {
        let derived = derive(item)
        guard derived != status else { return nil }
        status = derived
        return derived
    }
}
