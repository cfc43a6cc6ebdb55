import Foundation

/// An item as the engine plays it: identity travels with it from the queue to the sink, so
/// every engine event can say which item it is about (as a Clapper media item does) and nobody
/// has to rebuild identity from URIs.
///
/// Equality follows PRXPlayer: the same item only when the id **and** the media URL match; an
/// item whose URL changed (a remote episode now downloaded, say) is a different item, and a
/// player given it reloads.
public struct PlaybackItem: Sendable, Identifiable, Equatable, CustomStringConvertible {
    public typealias ID = UUID

    public let id: ID
    /// The item's own URI (what events and reports name; secrets redacted when shown).
    public var uri: String
    /// What playbin3 is given: the gateway's URL for a protected item, else `uri`.
    public var playedURI: String
    /// Headers for the item's HTTP source (the first request only; protected HLS goes through
    /// the gateway instead).
    public var headers: [(name: String, value: String)]
    public var title: String?
    /// The playlist entry's own options (see `PlaylistOptions`).
    public var options: [String: [String]]
    /// 0 for the first load; n for the n-th retry after a failure. The engine loads a retry like
    /// any other item; its events say which attempt they are about, so the queue does not report
    /// the same item as a new one.
    public var attempt: Int

    public init(id: ID = UUID(), uri: String, playedURI: String? = nil, headers: [(name: String, value: String)] = [], title: String? = nil,
                options: [String: [String]] = [:], attempt: Int = 0) {
        self.id = id
        self.uri = uri
        self.playedURI = playedURI ?? uri
        self.headers = headers
        self.title = title
        self.options = options
        self.attempt = attempt
    }

    public static func == (a: PlaybackItem, b: PlaybackItem) -> Bool { a.id == b.id && a.uri == b.uri }

    public var displayTitle: String {
        if let title, !title.isEmpty { return title }
        return MediaLocator.displayName(of: uri)
    }

    public var description: String { "\(id.uuidString.prefix(8)) \(Redactor.redactURL(uri))" }
}
