import Foundation

/// A playlist entry's protected-stream options, read from its per-entry options (`name → values`,
/// as the playlist parsers store them in `QueueItem.options`: `#EXTREEL:name=value` in M3U,
/// `<reel:option name="…">` in XSPF, VLC's `#EXTVLCOPT:http-…` mapped to `header`).
///
///     #EXTREEL:header=X-Api-Key: 9f8e7d6c
///     #EXTREEL:header-host=cdn.example.net
///     #EXTREEL:bucket=sports
///     #EXTREEL:token-placement=query
///     #EXTREEL:finished=yes
///     #EXTREEL:ends-at=2026-11-21T20:00:00Z
///     https://example.com/live/master.m3u8
///
/// - `header` (repeatable): `Name: value`, sent on every request of the entry.
/// - `header-host` (repeatable): another host allowed to receive headers and token.
/// - `bucket`: the token bucket (tokens come from `--token-file`/`--token-url`).
/// - `token-placement`: `header`, `query` or `both`.
/// - `finished`: `yes`/`true`/`1` (or empty): the event is over; close its playlists with `#EXT-X-ENDLIST`.
/// - `ends-at`: ISO 8601; after it, as `finished`.
/// Other names are not this type's business and are ignored.
public struct ProtectedEntryOptions: Sendable, Equatable {
    public var headers: [HeaderField] = []
    public var allowedHosts: [String] = []
    public var bucket: String?
    public var placement: TokenPlacement?
    public var finished = false
    public var endsAt: Date?

    public init() {}

    public var isEmpty: Bool { self == ProtectedEntryOptions() }

    /// Why an item cannot be routed: a bad per-entry option, or the gateway it needs could not
    /// start (then the item fails: it is never played without its headers or its live editing).
    public enum OptionError: Error, Sendable, Equatable, CustomStringConvertible {
        case invalid(option: String, reason: String)
        case gatewayUnavailable(reason: String)
        public var description: String {
            switch self {
            case .invalid(let option, let reason): "Playlist option '\(option)': \(reason)"
            case .gatewayUnavailable(let reason):
                "Not played: the loopback gateway this stream needs (for its headers, token or live window) could not start: \(reason)"
            }
        }

        /// The kind of the item's error.
        public var kind: PlaybackErrorKind {
            switch self {
            case .invalid: .invalidPlaylist
            case .gatewayUnavailable: .network
            }
        }
    }

    /// Reads the options an entry carries; throws on a bad value of a known option (the error
    /// never quotes a header's value).
    public init(options: [String: [String]]) throws(OptionError) {
        for text in options["header"] ?? [] {
            do { headers.append(try HeaderField(parsing: text)) } catch { throw .invalid(option: "header", reason: error.description) }
        }
        for host in options["header-host"] ?? [] {
            let h = host.trimmingCharacters(in: .whitespaces)
            guard !h.isEmpty, !h.contains(" ") else { throw .invalid(option: "header-host", reason: "needs a host name") }
            allowedHosts.append(h)
        }
        if let b = options["bucket"]?.last {
            guard !b.isEmpty else { throw .invalid(option: "bucket", reason: "needs a bucket name") }
            bucket = b
        }
        if let p = options["token-placement"]?.last {
            guard let placement = TokenPlacement(rawValue: p.lowercased()) else {
                throw .invalid(option: "token-placement", reason: "'\(p)' is not header, query or both")
            }
            self.placement = placement
        }
        if let f = options["finished"]?.last {
            switch f.lowercased() {
            case "", "yes", "true", "1": finished = true
            case "no", "false", "0": finished = false
            default: throw .invalid(option: "finished", reason: "'\(f)' is not yes or no")
            }
        }
        if let e = options["ends-at"]?.last {
            guard let date = TokenDocument.parseDate(e) else { throw .invalid(option: "ends-at", reason: "'\(e)' is not an ISO 8601 date-time") }
            endsAt = date
        }
    }
}
