/// gst-play.c's buffering rule, as a pure function: while buffering below 100 % with the user
/// wanting to play, hold the pipeline PAUSED and report "waiting to play"; at 100 % go to PLAYING.
/// Live sources are never paused for buffering (they would fall behind the live edge).
public enum BufferingRule {
    public struct Decision: Sendable, Equatable {
        public var target: PipelineTarget?
        public var timeControl: TimeControlStatus
        public init(target: PipelineTarget?, timeControl: TimeControlStatus) { self.target = target; self.timeControl = timeControl }
    }

    /// - Parameters:
    ///   - intent: what the user asked for.
    ///   - percent: the last BUFFERING percent, or nil when no buffering is in progress.
    ///   - isLive: whether the source is live.
    ///   - waitingForNetwork: the item waits for the network (`NetworkRule`): held PAUSED once
    ///     prerolled (it keeps its position and buffer), READY before (it fetches nothing).
    ///   - prerolled: the item has prerolled at least once.
    public static func decide(intent: PlayIntent, percent: Int?, isLive: Bool, waitingForNetwork: Bool = false, prerolled: Bool = true) -> Decision {
        if waitingForNetwork, intent != .stopped {
            return Decision(target: prerolled ? .paused : .ready,
                            timeControl: intent == .playing ? .waitingToPlayAtSpecifiedRate(.noNetwork) : .paused)
        }
        switch intent {
        case .stopped:
            return Decision(target: .ready, timeControl: .paused)
        case .paused:
            return Decision(target: .paused, timeControl: .paused)
        case .playing:
            if let percent, percent < 100, !isLive {
                return Decision(target: .paused, timeControl: .waitingToPlayAtSpecifiedRate(.buffering(percent: percent)))
            }
            return Decision(target: .playing, timeControl: .playing)
        }
    }
}
