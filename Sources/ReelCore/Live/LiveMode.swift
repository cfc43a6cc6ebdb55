/// How a live item plays (`--live-mode`, the `live-mode` entry option).
public enum LiveMode: String, Sendable, Equatable, CaseIterable, Codable {
    /// From a safe distance behind the live edge (`EXT-X-START`, else `HOLD-BACK`, else three
    /// target durations).
    case live
    /// From the programme start (or `start-offset` seconds after it); the window begins there and
    /// the live edge stays reachable.
    case restart
    /// The programme [start, end] as VOD: only its segments, closed with `#EXT-X-ENDLIST`.
    case catchup
}
