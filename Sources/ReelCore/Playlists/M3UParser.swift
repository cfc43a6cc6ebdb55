import Foundation

/// Reads M3U and extended M3U (`#EXTM3U`, `#EXTINF:duration [attributes],title`), with Reel's
/// per-entry `#EXTREEL:name=value` options and VLC's HTTP `#EXTVLCOPT:` ones (see
/// `PlaylistOptions`). Entry lines are literal paths (relative to the playlist) or URIs.
///
/// Diagnostics (with line numbers): malformed `#EXTINF`, malformed options, tags or options
/// with no entry after them, entries that cannot be resolved (or point at local files from a
/// network playlist), binary or over-long lines. Every other entry still loads.
/// HLS playlists are recognised by `PlaylistFormat.detect` before this parser runs.
public enum M3UParser {
    /// - Parameter firstEntries: stop after this many entries (`moreEntries` says whether the
    ///   text has more): a big list's first entries play while the rest is read.
    public static func parse(text: String, location: URL, firstEntries: Int? = nil) -> PlaylistParseResult {
        var result = PlaylistParseResult(format: .m3u)
        var builder = DiagnosticsBuilder()
        var title: String?, duration: Double?, infoLine: Int?
        var options: [String: [String]] = [:]
        var optionsLine: Int?

        func resetPending() {
            title = nil; duration = nil; infoLine = nil
            options = [:]; optionsLine = nil
        }

        for (number, rawLine, tooLong) in PlaylistText.lines(text) {
            if tooLong {
                builder.add(number, String(format: tr("longer than %@ KiB; skipped"), "\(PlaylistText.maxLineBytes >> 10)"))
                resetPending()
                continue
            }
            let line = rawLine.trimmingPlaylistSpaces()
            if line.isEmpty { continue }
            if PlaylistText.hasControlCharacters(Substring(line)) {
                builder.add(number, tr("binary data in the line; skipped"))
                resetPending()
                continue
            }
            if line.hasPrefix("#") {
                if line.hasPrefix("#EXTINF:") || line.hasPrefix("#EXTINF ") {
                    if let infoLine { builder.add(infoLine, tr("#EXTINF with no entry after it")) }
                    let parsed = parseExtInf(line.dropFirst(8))
                    title = parsed.title
                    duration = parsed.duration
                    infoLine = number
                    if let problem = parsed.problem { builder.add(number, problem) }
                } else if line.hasPrefix("#EXTREEL:") {
                    if let (name, value) = PlaylistOptions.parse(String(line.dropFirst(9))) {
                        options[name, default: []].append(value)
                        optionsLine = optionsLine ?? number
                    } else {
                        builder.add(number, tr("#EXTREEL needs name=value; ignored"))
                    }
                } else if line.hasPrefix("#EXTVLCOPT:") {
                    if let (name, value) = PlaylistOptions.fromVLC(String(line.dropFirst(11))) {
                        options[name, default: []].append(value)
                        optionsLine = optionsLine ?? number
                    }
                } else if line.hasPrefix("#PLAYLIST:") {
                    let t = line.dropFirst(10).trimmingPlaylistSpaces()
                    if !t.isEmpty { result.title = t }
                }
                // #EXTM3U, #EXTGRP, #EXTALB… and plain comments carry nothing Reel uses.
                continue
            }
            if let firstEntries, result.items.count >= firstEntries {
                result.moreEntries = true
                return result
            }
            if result.items.count >= PlaylistText.maxEntries {
                builder.add(number, String(format: tr("more than %@ entries; the rest were ignored"), "\(PlaylistText.maxEntries)"))
                resetPending()
                break
            }
            switch PlaylistEntryResolver.resolve(line, base: location, isURIReference: false) {
            case .success(let uri):
                result.items.append(QueueItem(uri: uri, title: title, duration: duration, options: options))
            case .failure(.message(let message)):
                builder.add(number, message)
            }
            resetPending()
        }
        if let infoLine { builder.add(infoLine, tr("#EXTINF with no entry after it")) }
        if let optionsLine { builder.add(optionsLine, tr("#EXTREEL/#EXTVLCOPT options with no entry after them")) }
        result.diagnostics = builder.diagnostics
        return result
    }

    /// `#EXTINF:` body: `duration[ key="value"…],title`. The duration is seconds (−1: unknown);
    /// commas inside quoted attribute values do not end the attributes.
    static func parseExtInf(_ body: Substring) -> (duration: Double?, title: String?, problem: String?) {
        var inQuotes = false
        var comma: Substring.Index?
        for i in body.indices {
            let c = body[i]
            if c == "\"" { inQuotes.toggle() } else if c == "," && !inQuotes { comma = i; break }
        }
        let head = comma.map { body[..<$0] } ?? body
        var title: String? = comma.map { body[body.index(after: $0)...].trimmingPlaylistSpaces() }
        if title?.isEmpty == true { title = nil }
        let durationText = head.trimmingPlaylistSpaces().prefix { $0 != " " && $0 != "\t" }
        var problem: String?
        var duration: Double?
        if durationText.isEmpty {
            problem = tr("#EXTINF has no duration")
        } else if let d = Double(durationText), d.isFinite {
            duration = d > 0 ? d : nil
        } else {
            problem = String(format: tr("#EXTINF duration “%@” is not a number"), "\(durationText.prefix(40))")
        }
        if comma == nil && problem == nil { problem = tr("#EXTINF has no comma before the title") }
        return (duration, title, problem)
    }
}
