import Foundation

/// Writes a queue as a playlist: extended M3U in UTF-8 (`.m3u8`) or XSPF. Both keep titles,
/// durations and per-entry options (`#EXTREEL:` lines / Reel's XSPF extension), so that
/// `PlaylistParser` reads back the same entries. Local files under `directory` (the folder the
/// playlist is saved in) are written relative to it, other local files as absolute paths/URIs.
///
/// Options may hold credentials (headers): callers should save with owner-only permissions when
/// `containsSecrets` is true.
public enum PlaylistWriter {
    public enum Format: String, Sendable, CaseIterable {
        case m3u8, xspf

        /// The format for a file name (`.m3u8`/`.m3u` → m3u8, `.xspf` → xspf).
        public init?(fileName: String) {
            switch (fileName as NSString).pathExtension.lowercased() {
            case "m3u8", "m3u": self = .m3u8
            case "xspf": self = .xspf
            default: return nil
            }
        }
    }

    public static func write(_ items: [QueueItem], format: Format, directory: URL? = nil, title: String? = nil) -> String {
        switch format {
        case .m3u8: m3u8(items, directory: directory)
        case .xspf: xspf(items, directory: directory, title: title)
        }
    }

    /// True when any item carries an option whose value must be kept private.
    public static func containsSecrets(_ items: [QueueItem]) -> Bool {
        items.contains { item in
            // A signed URL (a token or signature in its query) is as secret as a header.
            Redactor.redactURL(item.uri) != item.uri || !ResumeKey.queryIsIdentifyingOnly(item.uri)
                || item.options.contains { name, values in values.contains { PlaylistOptions.isSecret(name: name, value: $0) } }
        }
    }

    public static func m3u8(_ items: [QueueItem], directory: URL? = nil) -> String {
        var out = "#EXTM3U\n"
        for item in items {
            for name in item.options.keys.sorted() {
                for value in item.options[name] ?? [] { out += "#EXTREEL:\(name)=\(oneLine(value))\n" }
            }
            if item.title != nil || item.duration != nil {
                out += "#EXTINF:\(item.duration.map(formatSeconds) ?? "-1"),\(oneLine(item.title ?? ""))\n"
            }
            out += m3uLocation(item.uri, directory: directory) + "\n"
        }
        return out
    }

    public static func xspf(_ items: [QueueItem], directory: URL? = nil, title: String? = nil) -> String {
        var out = """
        <?xml version="1.0" encoding="UTF-8"?>
        <playlist version="1" xmlns="http://xspf.org/ns/0/" xmlns:reel="\(PlaylistOptions.xspfApplication)">

        """
        if let title { out += "  <title>\(escape(title))</title>\n" }
        out += "  <trackList>\n"
        for item in items {
            out += "    <track>\n"
            out += "      <location>\(escape(xspfLocation(item.uri, directory: directory)))</location>\n"
            if let title = item.title { out += "      <title>\(escape(title))</title>\n" }
            if let duration = item.duration { out += "      <duration>\(BoundedNumber.milliseconds(duration))</duration>\n" }
            if !item.options.isEmpty {
                out += "      <extension application=\"\(PlaylistOptions.xspfApplication)\">\n"
                for name in item.options.keys.sorted() {
                    for value in item.options[name] ?? [] {
                        out += "        <reel:option name=\"\(escape(name))\">\(escape(value))</reel:option>\n"
                    }
                }
                out += "      </extension>\n"
            }
            out += "    </track>\n"
        }
        out += "  </trackList>\n</playlist>\n"
        return out
    }

    /// XML text/attribute escaping (`XMLText.escape`).
    public static func escape(_ text: String) -> String { XMLText.escape(text) }

    /// One M3U line: line breaks become spaces; other control characters (C0, DEL, C1) are
    /// dropped, because the reader skips lines with controls and takes text full of them for
    /// binary data, and a saved queue must reopen (a Latin-1 PLS title byte 0x91 is U+0091).
    private static func oneLine(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for s in text.unicodeScalars {
            switch s.value {
            case 0x0A, 0x0D: out.append(" ")
            case 0x09: out.append(s)
            case 0..<0x20, 0x7F...0x9F: continue
            default: out.append(s)
            }
        }
        return String(out)
    }

    private static func formatSeconds(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "-1" }
        // Whole seconds as an integer when one holds them (a fuzzed PLS Length of 3e40 trapped).
        if seconds.rounded() == seconds, let whole = Int(exactly: seconds) { return String(whole) }
        var s = String(format: "%.3f", seconds)
        while s.hasSuffix("0") { s.removeLast() }
        if s.hasSuffix(".") { s.removeLast() }
        return s
    }

    /// A local path relative to `directory` when the file is inside it, else absolute; paths a
    /// line-based M3U cannot hold (line breaks and other controls, a leading `#`) are written as file URIs.
    private static func m3uLocation(_ uri: String, directory: URL?) -> String {
        guard var path = MediaLocator.localPath(of: uri) else { return uri }
        if uri.hasSuffix("/") && !path.hasSuffix("/") { path += "/" }  // a trailing slash survives
        let written = relative(path, to: directory) ?? path
        // Control characters too: the reader skips such lines or takes them for binary data.
        if written.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\t" || (0x7F...0x9F).contains($0.value) }) || written.hasPrefix("#") || written != written.trimmingCharacters(in: .whitespaces) {
            return URL(fileURLWithPath: path).absoluteString
        }
        return written
    }

    /// A relative URI reference for local files inside `directory`, else the URI.
    private static func xspfLocation(_ uri: String, directory: URL?) -> String {
        guard let path = MediaLocator.localPath(of: uri), let rel = relative(path, to: directory) else { return uri }
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: ":;")
        return rel.addingPercentEncoding(withAllowedCharacters: allowed) ?? URL(fileURLWithPath: path).absoluteString
    }

    private static func relative(_ path: String, to directory: URL?) -> String? {
        guard let directory else { return nil }
        var dir = directory.standardizedFileURL.path
        if !dir.hasSuffix("/") { dir += "/" }
        guard path.hasPrefix(dir), path.count > dir.count else { return nil }
        return String(path.dropFirst(dir.count))
    }
}
