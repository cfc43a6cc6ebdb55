import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads XSPF (`<playlist><trackList><track><location>…`), with titles, durations (ms) and
/// Reel's per-track options in `<extension application="https://reel.invalid/ns">` (see
/// `PlaylistOptions`). Locations are URI references, relative to the playlist.
///
/// Diagnostics (with line numbers): tracks without a location, bad durations, locations that
/// cannot be resolved, and XML errors. On an XML error the tracks completed before it still load.
/// Documents that declare entities are refused (no entity expansion attacks); external entities
/// are never resolved.
public enum XSPFParser {
    public static func parse(text: String, location: URL) -> PlaylistParseResult {
        var result = PlaylistParseResult(format: .xspf)
        if text.range(of: "<!ENTITY", options: .caseInsensitive) != nil {
            result.diagnostics = [PlaylistDiagnostic(line: lineNumber(of: "<!ENTITY", in: text), message: tr("XML entity declarations are not allowed in a playlist"), severity: .fatal)]
            return result
        }
        // XMLParser gets UTF-8: the text is already decoded, so the declaration's encoding must not
        // make libxml2 switch decoders (encoding="UTF-7" crashed it: Tests/Fuzz/corpus/xspf/regress-*).
        let xml: String
        switch utf8Document(text) {
        case .success(let rewritten): xml = rewritten
        case .failure(let diagnostic):
            result.diagnostics = [diagnostic]
            return result
        }
        let delegate = XSPFParserDelegate()
        let parser = XMLParser(data: Data(xml.utf8))
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        parser.delegate = delegate
        _ = parser.parse()  // its return value is not reliable on Linux: the delegate records errors
        var builder = DiagnosticsBuilder()
        for (line, message) in delegate.problems { builder.add(line, message) }
        for track in delegate.tracks {
            guard result.items.count < PlaylistText.maxEntries else {
                builder.add(track.line, String(format: tr("more than %@ entries; the rest were ignored"), "\(PlaylistText.maxEntries)"))
                break
            }
            guard let raw = track.location else { continue }
            switch PlaylistEntryResolver.resolve(raw, base: base(for: track, location: location, builder: &builder), isURIReference: true) {
            case .success(let uri):
                result.items.append(QueueItem(uri: uri, title: track.title, duration: track.duration, options: track.options))
            case .failure(.message(let message)):
                builder.add(track.locationLine, message)
            }
        }
        if let error = delegate.error {
            let kept = delegate.tracks.count
            builder.add(error.line, String(format: tr("XML error: %@"), "\(error.message)") + (kept > 0 ? String(format: tr("; the %@ track(s) before it were kept"), "\(kept)") : ""))
            if kept == 0 {
                result.diagnostics = builder.diagnostics.map { var d = $0; d.severity = .fatal; return d }
                return result
            }
        } else if !delegate.sawPlaylist {
            builder.add(nil, tr("no <playlist> element: not an XSPF playlist"))
        }
        result.title = delegate.playlistTitle
        result.diagnostics = builder.diagnostics
        return result
    }

    /// Encodings whose bytes `PlaylistParser` has already decoded correctly into `text` (UTF-8,
    /// UTF-16 with a BOM, Latin-1 for files that are not UTF-8) and ASCII, their subset.
    static let decodableEncodings: Set<String> = [
        "utf-8", "utf8", "utf-16", "utf-16le", "utf-16be", "utf16", "us-ascii", "ascii",
        "iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "latin-1", "l1", "iso-ir-100", "cp819",
    ]

    /// The document as XMLParser must see it: without the XML declaration's `encoding` (the text
    /// is decoded already and goes to the parser as UTF-8). A declared encoding Reel has not
    /// decoded (UTF-7, EBCDIC, Shift_JIS…) is refused, and so is a NUL character (not XML; it
    /// would also make libxml2 guess UTF-16 from the first bytes).
    static func utf8Document(_ text: String) -> Result<String, PlaylistDiagnostic> {
        // The declaration can only be at the very start (after a byte order mark).
        var start = text.startIndex
        if text.unicodeScalars.first == "\u{FEFF}" { start = text.unicodeScalars.index(after: start) }
        // libxml2 acts on the encoding as soon as it has read it, closed declaration or not, so
        // the declaration is everything up to its first ">" (or the end); every `encoding` in it
        // is checked and removed (a second one would be the first libxml2 sees).
        var rewritten = text
        if text[start...].hasPrefix("<?xml") {
            let pattern = #"encoding\s*=\s*("[^"]*"|'[^']*')"#
            while true {
                let end = rewritten[start...].firstIndex(of: ">").map { rewritten.index(after: $0) } ?? rewritten.endIndex
                guard let match = rewritten[start..<end].range(of: pattern, options: .regularExpression) else { break }
                let value = rewritten[match].split(separator: "=", maxSplits: 1)[1]
                    .trimmingCharacters(in: .whitespacesAndNewlines).dropFirst().dropLast()
                guard decodableEncodings.contains(value.lowercased()) else {
                    let shown = String(value.prefix(40).unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) })
                    return .failure(PlaylistDiagnostic(
                        line: 1 + rewritten[..<match.lowerBound].utf8.lazy.filter { $0 == 0x0A }.count,
                        message: String(format: tr("the XML declaration says encoding “%@”, which Reel cannot read: save the playlist as UTF-8"), "\(shown)"),
                        severity: .fatal))
                }
                rewritten.replaceSubrange(match, with: "")
            }
        }
        // A processing instruction without data (`<?x?>`, also nested: `<?x<?ved?>`) makes
        // FoundationXML call strlen on a NULL pointer (SEGV, found by fuzzing). No processing
        // instruction after the declaration means anything to XSPF, so all are removed (their
        // line breaks stay, so line numbers hold).
        // (Bytes, not Characters: a combining mark after "?>" makes ">" part of another Character,
        // and String.contains("?>") then misses a PI that libxml2 sees; found by fuzzing.)
        var from = start
        if rewritten[start...].hasPrefix("<?xml"), let end = rewritten[start...].firstIndex(of: ">") { from = rewritten.index(after: end) }
        rewritten = withoutProcessingInstructions(rewritten, from: rewritten.utf8.distance(from: rewritten.startIndex, to: from))
        if let nul = rewritten.utf8.firstIndex(of: 0) {
            let line = 1 + rewritten.utf8[..<nul].lazy.filter { $0 == 0x0A }.count
            return .failure(PlaylistDiagnostic(line: line, message: tr("a NUL character: not an XML playlist"), severity: .fatal))
        }
        return .success(rewritten)
    }

    /// `text` without any `<?…?>` from UTF-8 offset `floor` on, keeping each one's line breaks
    /// (so line numbers hold); repeated until none is left, since removing one can splice a new
    /// one together (`<<?a?>?a?>`, found by fuzzing). It works on bytes: `<`, `?`, `>` and line
    /// breaks are ASCII, which never occur inside a multi-byte UTF-8 sequence, so no cut can
    /// fall inside a character. (An earlier version counted String indices across removals and
    /// crashed when a removal joined "\r" and "\n" into one Character, found by fuzzing.)
    static func withoutProcessingInstructions(_ text: String, from floor: Int) -> String {
        let lt = UInt8(ascii: "<"), question = UInt8(ascii: "?"), gt = UInt8(ascii: ">")
        var bytes = Array(text.utf8)
        var changed = true
        while changed {
            changed = false
            var out: [UInt8] = Array(bytes[..<min(floor, bytes.count)])
            out.reserveCapacity(bytes.count)
            var i = min(floor, bytes.count)
            while i < bytes.count {
                if bytes[i] == lt, i + 1 < bytes.count, bytes[i + 1] == question {
                    var j = i + 2
                    while j + 1 < bytes.count, !(bytes[j] == question && bytes[j + 1] == gt) { j += 1 }
                    if j + 1 < bytes.count {
                        out += bytes[i..<j + 2].filter { $0 == 0x0A || $0 == 0x0D }
                        i = j + 2
                        changed = true
                        continue
                    }
                }
                out.append(bytes[i])
                i += 1
            }
            bytes = out
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func lineNumber(of needle: String, in text: String) -> Int? {
        guard let r = text.range(of: needle, options: .caseInsensitive) else { return nil }
        return 1 + text[..<r.lowerBound].utf8.lazy.filter { $0 == 0x0A || $0 == 0x0D }.count
    }
}


extension XSPFParser {
    /// The base a track's relative location resolves against: its `xml:base` (XML Base, as the
    /// XSPF spec says), resolved against the playlist's own location; the playlist's location
    /// when there is none, or when a network playlist's `xml:base` would point at local files
    /// (a network playlist may not name local files).
    static func base(for track: XSPFParserDelegate.Track, location: URL, builder: inout DiagnosticsBuilder) -> URL {
        guard let written = track.base else { return location }
        guard let base = URL(string: written, relativeTo: location)?.absoluteURL ?? URL(string: written.addingPercentEncoding(withAllowedCharacters: .urlFragmentAllowed) ?? "", relativeTo: location)?.absoluteURL else {
            builder.add(track.line, String(format: tr("xml:base “%@” is not a valid URI; ignored"), "\(Redactor.redactText(written))"))
            return location
        }
        if MediaLocator.isNetwork(location.absoluteString), !MediaLocator.isNetwork(base.absoluteString) {
            builder.add(track.line, tr("xml:base points a network playlist at local files; ignored"))
            return location
        }
        return base
    }
}
