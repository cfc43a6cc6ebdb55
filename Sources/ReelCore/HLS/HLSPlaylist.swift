import Foundation

/// A parsed HLS playlist: master (multivariant) or media.
///
///     let playlist = try HLSPlaylist.parse(text)
///     switch playlist {
///     case .master(let master): master.variants …
///     case .media(let media): media.segments …
///     }
public enum HLSPlaylist: Sendable, Equatable {
    case master(HLSMasterPlaylist)
    case media(HLSMediaPlaylist)

    /// Parses M3U8 text (CRLF or LF, with or without a BOM) leniently (see `HLSParser`); throws
    /// only for text that is not a playlist at all. `parseReporting` also gives the problems.
    public static func parse(_ text: String) throws(HLSParseError) -> HLSPlaylist {
        try HLSParser.parse(text).playlist
    }

    /// Parses leniently and reports every deviation from RFC 8216 with its line.
    /// - Parameters:
    ///   - url: the playlist's own URL (for `EXT-X-DEFINE` `QUERYPARAM`).
    ///   - importable: the multivariant playlist's variables (for a media playlist's `IMPORT`).
    public static func parseReporting(_ text: String, url: URL? = nil, importable: [String: String] = [:]) throws(HLSParseError) -> HLSParseResult {
        try HLSParser.parse(text, url: url, importable: importable)
    }

    /// True when `text` starts (after a BOM and blanks) with `#EXTM3U`.
    public static func looksLikePlaylist(_ text: Substring) -> Bool {
        var rest = text
        if rest.first == "\u{FEFF}" { rest = rest.dropFirst() }
        return rest.drop { $0.isWhitespace }.hasPrefix("#EXTM3U")
    }

    /// The same check on raw bytes (for a gateway peeking at a body).
    public static func looksLikePlaylist(bytes: some Collection<UInt8>) -> Bool {
        var slice = Array(bytes.prefix(64))[...]
        if slice.starts(with: [0xEF, 0xBB, 0xBF]) { slice = slice.dropFirst(3) }
        slice = slice.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }
        return slice.starts(with: Array("#EXTM3U".utf8))
    }

    public var master: HLSMasterPlaylist? { if case .master(let m) = self { m } else { nil } }
    public var media: HLSMediaPlaylist? { if case .media(let m) = self { m } else { nil } }
}
