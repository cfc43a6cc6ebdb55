import Foundation

/// A multivariant playlist without the variants that cannot be played: the gateway fetches every
/// variant's media playlist when it serves a master (as ffmpeg's HLS demuxer does at open) and
/// leaves out those that fail (404, 403, 5xx, no answer). GStreamer 1.22's hlsdemux2 fails the
/// whole item when the variant it starts on does not answer, and Reel's adaptive rule would pin
/// it again after every fragment; a variant left out is one nobody chooses. Pure: text in, text
/// out, every other byte kept.
public enum HLSMasterFilter {
    /// The variant playlists of `text` (a master), resolved against `base`, in order; empty for a
    /// media playlist or text that is not a playlist.
    public static func variantURLs(in text: String, base: URL) -> [URL] {
        guard case .master(let master)? = try? HLSPlaylist.parse(text) else { return [] }
        return master.variants.compactMap { URIReference.resolve($0.uri, against: base) }
    }

    /// `text` without the `#EXT-X-STREAM-INF` variants whose URI (resolved against `base`) is in
    /// `unavailable` (the tag and its URI line; blank lines and comments between them too). When
    /// that would leave no variant, `text` is returned as it is: the item then fails with the
    /// variant's own error rather than as an empty playlist.
    public static func removing(_ unavailable: Set<URL>, from text: String, base: URL) -> String {
        guard !unavailable.isEmpty else { return text }
        let lines = HLSLine.split(text)
        var keep = [Bool](repeating: true, count: lines.count)
        var pendingTag: Int?
        var kept = 0, removed = 0
        for (i, line) in lines.enumerated() {
            let t = line.trimmed
            if t.hasPrefix("#EXT-X-STREAM-INF") { pendingTag = i; continue }
            guard let tag = pendingTag, !t.isEmpty, !t.hasPrefix("#") else { continue }
            pendingTag = nil
            if let url = URIReference.resolve(String(t), against: base), unavailable.contains(url) {
                for j in tag...i { keep[j] = false }
                removed += 1
            } else {
                kept += 1
            }
        }
        guard removed > 0, kept > 0 else { return text }
        return zip(lines, keep).filter(\.1).map { String($0.0.content) + String($0.0.terminator) }.joined()
    }
}
