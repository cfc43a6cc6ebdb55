import Foundation

/// Per-entry protected-stream options in an M3U playlist: directive lines just before the
/// entry's URI apply to that entry only.
///
///     #EXTM3U
///     #EXTINF:-1,Final (catchup)
///     #REEL-HEADER:X-Api-Key: 9f8e7d6c
///     #REEL-HEADER-HOST:cdn.example.net
///     #REEL-TOKEN-BUCKET:sports
///     #REEL-TOKEN-PLACEMENT:query
///     #REEL-FINISHED
///     #REEL-ENDS-AT:2026-11-21T20:00:00Z
///     https://example.com/live/master.m3u8
///
/// - `#REEL-HEADER:Name: value` (repeatable): a header for every request of the entry.
/// - `#REEL-HEADER-HOST:host` (repeatable): another host allowed to receive headers and token.
/// - `#REEL-TOKEN-BUCKET:name`: the token bucket (tokens come from `--token-file`/`--token-url`).
/// - `#REEL-TOKEN-PLACEMENT:header|query|both`.
/// - `#REEL-FINISHED`: the event is over; close its playlists with `#EXT-X-ENDLIST`.
/// - `#REEL-ENDS-AT:ISO 8601`: when the event ends; after it, as `#REEL-FINISHED`.
/// - VLC's `#EXTVLCOPT:http-user-agent=…` and `#EXTVLCOPT:http-referrer=…` become the
///   `User-Agent` and `Referer` headers.
public struct ProtectedEntryOptions: Sendable, Equatable {
    public var headers: [HeaderField] = []
    public var allowedHosts: [String] = []
    public var bucket: String?
    public var placement: TokenPlacement?
    public var finished = false
    public var endsAt: Date?

    public init() {}

    public var isEmpty: Bool { self == ProtectedEntryOptions() }

    public enum DirectiveError: Error, Sendable, Equatable, CustomStringConvertible {
        case invalid(directive: String, reason: String)
        public var description: String {
            switch self {
            case .invalid(let directive, let reason): "\(directive): \(reason)"
            }
        }
    }

    /// Applies one playlist line. Returns false when the line is not one of these directives
    /// (the caller handles it); throws when it is one but its value is bad.
    @discardableResult
    public mutating func apply(_ line: String) throws(DirectiveError) -> Bool {
        let text = line.trimmingCharacters(in: .whitespaces)
        func value(after prefix: String) -> String? {
            guard text.uppercased().hasPrefix(prefix) else { return nil }
            return String(text.dropFirst(prefix.count)).trimmingCharacters(in: .whitespaces)
        }
        if let v = value(after: "#REEL-HEADER-HOST:") {
            guard !v.isEmpty, !v.contains(" ") else { throw .invalid(directive: "#REEL-HEADER-HOST", reason: "needs a host name") }
            allowedHosts.append(v)
        } else if let v = value(after: "#REEL-HEADER:") {
            do { headers.append(try HeaderField(parsing: v)) } catch { throw .invalid(directive: "#REEL-HEADER", reason: error.description) }
        } else if let v = value(after: "#REEL-TOKEN-BUCKET:") {
            guard !v.isEmpty else { throw .invalid(directive: "#REEL-TOKEN-BUCKET", reason: "needs a bucket name") }
            bucket = v
        } else if let v = value(after: "#REEL-TOKEN-PLACEMENT:") {
            guard let p = TokenPlacement(rawValue: v.lowercased()) else {
                throw .invalid(directive: "#REEL-TOKEN-PLACEMENT", reason: "'\(v)' is not header, query or both")
            }
            placement = p
        } else if text.uppercased() == "#REEL-FINISHED" {
            finished = true
        } else if let v = value(after: "#REEL-ENDS-AT:") {
            guard let date = TokenDocument.parseDate(v) else { throw .invalid(directive: "#REEL-ENDS-AT", reason: "'\(v)' is not an ISO 8601 date-time") }
            endsAt = date
        } else if let v = value(after: "#EXTVLCOPT:HTTP-USER-AGENT=") {
            do { headers.append(try HeaderField(name: "User-Agent", value: v)) } catch { throw .invalid(directive: "#EXTVLCOPT", reason: error.description) }
        } else if let v = value(after: "#EXTVLCOPT:HTTP-REFERRER=") {
            do { headers.append(try HeaderField(name: "Referer", value: v)) } catch { throw .invalid(directive: "#EXTVLCOPT", reason: error.description) }
        } else {
            return false
        }
        return true
    }
}
