/// The playlist formats Reel reads. `hls` is recognised so that it is NOT expanded: an HLS
/// playlist is one stream.
public enum PlaylistFormat: String, Sendable, Equatable, CaseIterable {
    case m3u, pls, xspf, hls

    /// File name extensions that suggest a playlist (lower-case, no dot).
    public static let extensions: Set<String> = ["m3u", "m3u8", "pls", "xspf"]

    /// The format suggested by a file name or URL path, if any (`.m3u8` says m3u: the content
    /// decides whether it is HLS).
    public static func fromExtension(_ name: String) -> PlaylistFormat? {
        var path = Substring(name)
        if let q = path.firstIndex(where: { $0 == "?" || $0 == "#" }), name.contains("://") { path = path[..<q] }
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        switch path[path.index(after: dot)...].lowercased() {
        case "m3u", "m3u8": return .m3u
        case "pls": return .pls
        case "xspf": return .xspf
        default: return nil
        }
    }

    /// The format of a decoded playlist text: content first (XML with `<playlist`, a `[playlist]`
    /// section, `#EXT-X-` tags), then the name's extension, then M3U.
    public static func detect(text: String, name: String?) -> PlaylistFormat {
        var firstLine: Substring?
        var sawHLSTag = false
        var scanned = 0
        // Line by line as read: a big list is not split whole to look at its top.
        var rest = text[...]
        while !rest.isEmpty {
            let end = rest.firstIndex { $0 == "\n" || $0 == "\r" || $0 == "\r\n" } ?? rest.endIndex
            let line = rest[..<end]
            rest = end == rest.endIndex ? "" : rest[rest.index(after: end)...]
            let trimmed = line.drop(while: { $0 == " " || $0 == "\t" })
            if trimmed.isEmpty { continue }
            if firstLine == nil { firstLine = trimmed }
            if trimmed.hasPrefix("#EXT-X-") { sawHLSTag = true; break }
            scanned += 1
            if scanned > 10_000 { break }
        }
        if let first = firstLine {
            if first.hasPrefix("<") && text.contains("<playlist") { return .xspf }
            if first.lowercased().hasPrefix("[playlist]") { return .pls }
        }
        if sawHLSTag { return .hls }
        return name.flatMap(fromExtension) ?? .m3u
    }
}
