import Foundation
import ReelCore
import Synchronization

/// A protected item: the upstream URL and what every request for it needs.
public struct GatewayItem: Sendable {
    /// The item's upstream URL (http or https). An `Authorization` query parameter in it is
    /// removed and replaced when the token goes in the query.
    public var url: URL
    /// Headers sent on every request to the item's origin host and the allow-listed hosts.
    public var headers: [HeaderField]
    /// Hosts besides the origin that get the headers and token (CDNs); `*.example.com` allowed.
    public var allowedHosts: [String]
    /// The source of the item's event token, when it needs one.
    public var tokenProvider: TokenProvider?
    public var placement: TokenPlacement
    /// Append `#EXT-X-ENDLIST` to media playlists that lack it (a finished event, catchup).
    public var finished: Bool
    /// When the event ends: after it, media playlists get `#EXT-X-ENDLIST` as with `finished`.
    public var endsAt: Date?
    /// Rewrite HLS playlists to route through the gateway (false: relay every body as it is, for
    /// an M3U/PLS/XSPF playlist that Reel expands itself).
    public var rewritesPlaylists = true
    /// A live item's programme and window (`LiveStream`): its media playlists are edited by it
    /// (restart, catchup, the start) before they are rewritten, and it keeps what was served.
    public var live: LiveStream?
    /// The item's playlist as Reel fetched it moments ago (the queue builder's look at a
    /// `.m3u8` URL: an HLS stream, or a list to expand?): the item's first request is answered
    /// from it instead of upstream, once, within 30 s, so a stream's start costs one fetch of
    /// its master. Only for items without credentials (the look was made without them).
    public var prefetched: PrefetchedPlaylist?
    /// Only this video Representation of a DASH MPD (its `@id`): the MPD is served without the
    /// others of its AdaptationSet, so that one rendition plays (`reel check --renditions all`).
    public var representation: String?

    public init(url: URL, headers: [HeaderField] = [], allowedHosts: [String] = [], tokenProvider: TokenProvider? = nil,
                placement: TokenPlacement = .header, finished: Bool = false, endsAt: Date? = nil) {
        self.url = url
        self.headers = headers
        self.allowedHosts = allowedHosts
        self.tokenProvider = tokenProvider
        self.placement = placement
        self.finished = finished
        self.endsAt = endsAt
        for header in headers { header.registerSecret() }
    }

    public var scope: HeaderScope { HeaderScope(itemURL: url, allowedHosts: allowedHosts) }

    /// Whether playlists should be closed with `#EXT-X-ENDLIST` now.
    public func appendsEndList(now: Date = Date()) -> Bool { finished || (endsAt.map { $0 <= now } ?? false) }
}

/// A playlist fetched moments ago, handed to the gateway item it belongs to (`GatewayItem.prefetched`).
public final class PrefetchedPlaylist: Sendable {
    public let text: String
    /// The URL that answered (after redirects): relative URIs resolve against it.
    public let base: URL
    private let fetched: ContinuousClock.Instant
    private let taken = Mutex(false)
    /// How long it stands for the stream's own first request.
    public static let freshness: Duration = .seconds(30)

    public init(text: String, base: URL, fetched: ContinuousClock.Instant = .now) {
        self.text = text
        self.base = base
        self.fetched = fetched
    }

    public var isFresh: Bool { ContinuousClock.now - fetched < Self.freshness }

    /// The text and base, the first time it is asked for while fresh; nil after.
    public func take() -> (text: String, base: URL)? {
        guard isFresh else { return nil }
        return taken.withLock { t in
            if t { return nil }
            t = true
            return (text, base)
        }
    }
}
