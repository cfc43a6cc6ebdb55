import Foundation

/// Reads playlist files: detects the format and hands the text to `M3UParser`, `PLSParser` or
/// `XSPFParser`. HLS playlists (any `#EXT-X-` tag) are never expanded: the result is one item,
/// the playlist itself as a stream.
///
/// Bounds: files over 16 MiB are refused, lines over 64 KiB skipped, at most 100 000 entries and
/// 200 diagnostics; binary data is refused. Nothing here blocks on anything but the one file read.
public enum PlaylistParser {
    /// Whether an input (path or URL) names a playlist by its extension (.m3u, .m3u8, .pls, .xspf).
    public static func looksLikePlaylist(_ input: String) -> Bool {
        PlaylistFormat.fromExtension(input) != nil
    }

    /// Parses playlist bytes. `location` is where the playlist itself lives (a file URL or the
    /// http(s) URL it was fetched from): relative entries resolve against it, and a network
    /// location forbids entries that point at local files.
    /// `firstEntries`: an M3U's first entries only (`M3UParser`); other formats are read whole.
    public static func parse(_ data: Data, location: URL, firstEntries: Int? = nil) -> PlaylistParseResult {
        let name = location.lastPathComponent
        let guessed = PlaylistFormat.fromExtension(location.path)
        let expectUTF8 = location.pathExtension.lowercased() != "m3u" && guessed != .pls
        let decoded: PlaylistText.Decoded
        switch PlaylistText.decode(data, expectUTF8: expectUTF8) {
        case .success(let d): decoded = d
        case .failure(let diagnostic): return PlaylistParseResult(format: guessed ?? .m3u, diagnostics: [diagnostic])
        }
        var result: PlaylistParseResult
        switch PlaylistFormat.detect(text: decoded.text, name: name) {
        case .hls:
            let uri = location.isFileURL ? location.standardizedFileURL.absoluteString : location.absoluteString
            result = PlaylistParseResult(format: .hls, items: [QueueItem(uri: uri, title: nil)])
        case .pls:
            result = PLSParser.parse(text: decoded.text, location: location)
        case .xspf:
            result = XSPFParser.parse(text: decoded.text, location: location)
        case .m3u:
            result = M3UParser.parse(text: decoded.text, location: location, firstEntries: firstEntries)
        }
        result.diagnostics = (decoded.diagnostics + result.diagnostics).enumerated()
            .sorted { a, b in (a.element.line ?? .max, a.offset) < (b.element.line ?? .max, b.offset) }
            .map(\.element)
        return result
    }

    /// Reads and parses a local playlist file (a path or file URL). A missing, unreadable,
    /// non-regular or oversized file gives a fatal diagnostic.
    public static func load(file: URL, firstEntries: Int? = nil) -> PlaylistParseResult {
        let guessed = PlaylistFormat.fromExtension(file.path) ?? .m3u
        func fatal(_ message: String) -> PlaylistParseResult {
            PlaylistParseResult(format: guessed, diagnostics: [PlaylistDiagnostic(line: nil, message: message, severity: .fatal)])
        }
        let path = file.path
        // A symlink to a playlist is that playlist (its entries resolve against the name given).
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: target) else {
            return fatal(tr("the playlist file does not exist or cannot be read"))
        }
        guard attributes[.type] as? FileAttributeType == .typeRegular else { return fatal(tr("not a regular file")) }
        if let size = (attributes[.size] as? NSNumber)?.intValue, size > PlaylistText.maxBytes {
            return fatal(String(format: tr("the file is larger than %@ MiB; not read"), "\(PlaylistText.maxBytes >> 20)"))
        }
        guard let handle = FileHandle(forReadingAtPath: path) else { return fatal(tr("the playlist file cannot be opened")) }
        defer { try? handle.close() }
        // Read one byte more than allowed: a file that grew after the size check is still caught.
        let data = (try? handle.read(upToCount: PlaylistText.maxBytes + 1)) ?? Data()
        var result = parse(data, location: URL(fileURLWithPath: path).standardizedFileURL, firstEntries: firstEntries)
        if result.format == .m3u || result.format == .pls { result.items = result.items.map(preferringDecodedName) }
        return result
    }

    /// An M3U or PLS entry is a file name as written (`a%20b.mp4` may be a file's real name),
    /// but web tools and phones write them as URI references (`My%20Song.mp3`), and VLC and Totem
    /// read them so. Where no file has the literal name and the percent-decoded one exists, the
    /// item is that file.
    static func preferringDecodedName(_ item: QueueItem) -> QueueItem {
        guard item.uri.hasPrefix("file:"), let path = PlaylistEntryResolver.filePath(fromURI: item.uri), path.contains("%"),
              let decoded = path.removingPercentEncoding, decoded != path,
              !FileManager.default.fileExists(atPath: path), FileManager.default.fileExists(atPath: decoded) else { return item }
        var item = item
        item.uri = URL(fileURLWithPath: decoded).absoluteString
        return item
    }
}
