/// How often a live stream's changing title is said (`media-info`, the window's title, MPRIS):
/// at most once a second, the newest one winning. An internet radio changes its ICY StreamTitle
/// every few minutes; a server sending a new one in every 1-byte metadata block made ~1,000
/// `media-info` events and ~300 MPRIS signals a second with the main thread at 100 % (issue 46).
/// Pure: the caller gives the time.
public struct TitleRateLimit: Sendable, Equatable {
    public static let interval = 1.0
    private var lastSaid = -Double.infinity
    /// A title waiting for its turn (said by `due`).
    public private(set) var pending: String?

    public init() {}

    /// A new title at `now`: returned when it may be said now; else kept as the pending one.
    public mutating func offer(_ title: String, now: Double) -> String? {
        if now - lastSaid >= Self.interval {
            lastSaid = now
            pending = nil
            return title
        }
        pending = title
        return nil
    }

    /// The pending title, once its second has come.
    public mutating func due(now: Double) -> String? {
        guard let title = pending, now - lastSaid >= Self.interval else { return nil }
        lastSaid = now
        pending = nil
        return title
    }
}
