/// Events only on change, decided in one place (as GstPlay's `change_state` does): an event that
/// states a value (status, time control, duration, media info, rate, volume) is dropped when it
/// says what the last one of its kind said for the same item. A new item (`itemChanged`) forgets
/// everything, so its first of each kind goes out.
///
/// Buffering is reported per *episode* (from the first level under 100 % to the 100 that ends
/// it) in 10 % steps that only rise: demuxers report a level that hovers (hlsdemux2 at a start:
/// 28, 30, 29, 30, 28 … within a millisecond), and a reader of the event stream wants 20, 30, …
/// 100 once each. A time control waiting for buffering states its percent the same way.
public struct EventDeduplicator: Sendable {
    private var last: [String: PlayerEvent] = [:]
    private var buffering = BufferingSteps()
    /// The same for time controls waiting for buffering.
    private var waiting = BufferingSteps()

    public init() {}

    /// The event to deliver for `event` (its buffering percent in steps), nil to drop it;
    /// remembers what it lets through.
    public mutating func admit(_ event: PlayerEvent) -> PlayerEvent? {
        var event = event
        let kind: String
        switch event {
        case .itemChanged:
            last.removeAll()
            buffering = BufferingSteps()
            waiting = BufferingSteps()
            return event
        case .buffering(let percent):
            guard let stepped = buffering.report(percent) else { return nil }
            return .buffering(percent: stepped)
        case .status: kind = "status"
        case .timeControl(let status):
            kind = "time-control"
            if case .waitingToPlayAtSpecifiedRate(.buffering(let percent)) = status {
                let wasWaiting = Self.isWaitingForBuffering(last[kind])
                if !wasWaiting { waiting = BufferingSteps() }
                guard let stepped = waiting.report(percent) else { return nil }
                event = .timeControl(.waitingToPlayAtSpecifiedRate(.buffering(percent: stepped)))
            } else {
                waiting = BufferingSteps()
            }
        case .duration: kind = "duration"
        case .mediaInfo: kind = "media-info"
        case .rate: kind = "rate"
        case .volume: kind = "volume"
        case .subtitle: kind = "subtitle"
        // The same track list again (a second stream selection on a loaded machine, seen in
        // EventStreamShapeTests under make test LOAD=1) says nothing new.
        case .tracks: kind = "tracks"
        default:
            return event
        }
        if last[kind] == event { return nil }
        last[kind] = event
        return event
    }

    private static func isWaitingForBuffering(_ event: PlayerEvent?) -> Bool {
        if case .timeControl(.waitingToPlayAtSpecifiedRate(.buffering))? = event { return true }
        return false
    }
}

/// One item's buffering levels as reported: 10 % steps that only rise within an episode, and the
/// 100 that ends it once.
struct BufferingSteps: Sendable {
    /// The highest step (0…9) reported in the current episode; nil outside one.
    private var high: Int?
    /// The last report was the 100 that ended an episode (a repeated 100 says nothing).
    private var ended = false

    /// `percent` as the step to report (0, 10, … 90, 100), nil when it says nothing new.
    mutating func report(_ percent: Int) -> Int? {
        if percent >= 100 {
            guard !ended else { return nil }
            ended = true
            high = nil
            return 100
        }
        let step = min(9, max(0, percent / 10))
        if let h = high, step <= h { return nil }
        high = step
        ended = false
        return step * 10
    }
}
