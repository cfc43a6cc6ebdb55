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
            result.diagnostics = [PlaylistDiagnostic(line: lineNumber(of: "<!ENTITY", in: text), message: "XML entity declarations are not allowed in a playlist", severity: .fatal)]
            return result
        }
        let delegate = XSPFParserDelegate()
        let parser = XMLParser(data: Data(text.utf8))
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        parser.delegate = delegate
        _ = parser.parse()  // its return value is not reliable on Linux: the delegate records errors
        var builder = DiagnosticsBuilder()
        for (line, message) in delegate.problems { builder.add(line, message) }
        for track in delegate.tracks {
            guard result.items.count < PlaylistText.maxEntries else {
                builder.add(track.line, "more than \(PlaylistText.maxEntries) entries; the rest were ignored")
                break
            }
            guard let raw = track.location else { continue }
            switch PlaylistEntryResolver.resolve(raw, base: location, isURIReference: true) {
            case .success(let uri):
                result.items.append(QueueItem(uri: uri, title: track.title, duration: track.duration, options: track.options))
            case .failure(.message(let message)):
                builder.add(track.locationLine, message)
            }
        }
        if let error = delegate.error {
            let kept = delegate.tracks.count
            builder.add(error.line, "XML error: \(error.message)" + (kept > 0 ? "; the \(kept) track(s) before it were kept" : ""))
            if kept == 0 {
                result.diagnostics = builder.diagnostics.map { var d = $0; d.severity = .fatal; return d }
                return result
            }
        } else if !delegate.sawPlaylist {
            builder.add(nil, "no <playlist> element: not an XSPF playlist")
        }
        result.title = delegate.playlistTitle
        result.diagnostics = builder.diagnostics
        return result
    }

    private static func lineNumber(of needle: String, in text: String) -> Int? {
        guard let r = text.range(of: needle, options: .caseInsensitive) else { return nil }
        return 1 + text[..<r.lowerBound].utf8.lazy.filter { $0 == 0x0A || $0 == 0x0D }.count
    }
}
