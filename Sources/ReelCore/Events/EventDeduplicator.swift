/// Events only on change, decided in one place (as GstPlay's `change_state` does): an event that
/// states a value (status, time control, duration, media info, rate, volume) is dropped when it
/// says what the last one of its kind said for the same item; buffering is reported in 10 %
/// steps (a live HLS start used to print one line per percent, ~100 within a few ms), always
/// with its 100, and so is a time control waiting for buffering. A new item (`itemChanged`) forgets everything, so its first of each kind goes out.
public struct EventDeduplicator: Sendable {
    private var last: [String: PlayerEvent] = [:]
    private var bufferingStep: Int?

    public init() {}

    /// Whether `event` should be delivered; remembers it when so.
    public mutating func admit(_ event: PlayerEvent) -> Bool {
        let kind: String
        switch event {
        case .itemChanged:
            last.removeAll()
            bufferingStep = nil
            return true
        case .buffering(let percent):
            let step = min(10, max(0, percent / 10))
            guard step != bufferingStep else { return false }
            bufferingStep = step
            return true
        case .status: kind = "status"
        case .timeControl: kind = "time-control"
        case .duration: kind = "duration"
        case .mediaInfo: kind = "media-info"
        case .rate: kind = "rate"
        case .volume: kind = "volume"
        default:
            return true
        }
        let stated = Self.stated(event)
        if last[kind] == stated { return false }
        last[kind] = stated
        return true
    }

    /// What an event states, for the comparison: a time control waiting for buffering states its
    /// percent in 10 % steps, as buffering does (one line per step, not per percent).
    static func stated(_ event: PlayerEvent) -> PlayerEvent {
        guard case .timeControl(.waitingToPlayAtSpecifiedRate(.buffering(let percent))) = event else { return event }
        return .timeControl(.waitingToPlayAtSpecifiedRate(.buffering(percent: min(10, max(0, percent / 10)) * 10)))
    }
}
