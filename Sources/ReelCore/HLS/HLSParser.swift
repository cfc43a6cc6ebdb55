import Foundation

/// Parses M3U8 text into `HLSPlaylist` (RFC 8216bis and the low-latency extensions). Lenient to
/// play, strict to report: what other players accept parses (a comment or blank before
/// `#EXTM3U`, a missing `#EXTM3U`, `EXT-X-DEFINE` variables, attribute lists with blanks, a
/// trailing `#EXTINF` with no URI, no `#EXT-X-TARGETDURATION`, unknown and vendor tags), and every
/// deviation from the RFC becomes an `HLSProblem` with its line instead of a refusal. Only text
/// that is not a playlist at all is refused (`notAPlaylist`).
struct HLSParser {
    var problems: [HLSProblem] = []
    var variables: HLSVariables

    static func parse(_ text: String, url: URL? = nil, importable: [String: String] = [:]) throws(HLSParseError) -> HLSParseResult {
        let lines = HLSLine.split(text)
        var parser = HLSParser(variables: HLSVariables(importable: importable, url: url))
        let firstContent = lines.firstIndex { !$0.trimmed.isEmpty }
        let header = lines.firstIndex { $0.trimmed.hasPrefix("#EXTM3U") }
        let start: Int
        if let header {
            if header != firstContent {
                parser.report(header, .error, "header-not-first", "#EXTM3U must be the first line; the lines before it are ignored.")
            }
            start = header + 1
        } else {
            guard lines.contains(where: { $0.trimmed.hasPrefix("#EXTINF") || $0.trimmed.hasPrefix("#EXT-X-") }) else { throw .notAPlaylist }
            parser.report(firstContent ?? 0, .error, "missing-header", "The playlist does not begin with #EXTM3U.")
            start = 0
        }
        let body = Array(lines.enumerated().dropFirst(start))
        let isMaster = body.contains { _, line in
            guard let tag = line.tag?.name else { return false }
            return tag == "#EXT-X-STREAM-INF" || tag == "#EXT-X-I-FRAME-STREAM-INF" || tag == "#EXT-X-MEDIA"
        }
        let playlist: HLSPlaylist = isMaster ? .master(parser.parseMaster(body)) : .media(parser.parseMedia(body))
        return HLSParseResult(playlist: playlist, problems: parser.problems, variables: parser.variables.values)
    }

    mutating func report(_ index: Int?, _ severity: HLSProblem.Severity, _ code: String, _ message: String) {
        problems.append(HLSProblem(line: index.map { $0 + 1 }, severity: severity, code: code, message: message))
    }

    /// The line as it reads after variable substitution (`EXT-X-DEFINE` lines are not
    /// substituted, but defined), or nil for a blank line or a comment.
    mutating func resolve(_ line: HLSLine, at n: Int) -> (text: Substring, tag: (name: Substring, value: Substring)?)? {
        let raw = line.trimmed
        if raw.isEmpty { return nil }
        if raw.hasPrefix("#EXT-X-DEFINE:") {
            if let problem = variables.define(HLSAttributeList(parsing: raw.dropFirst("#EXT-X-DEFINE:".count)), line: n + 1) { problems.append(problem) }
            return nil
        }
        if raw.hasPrefix("#") && !raw.hasPrefix("#EXT") { return nil }  // a comment
        let (text, undefined, tooLong) = variables.substitute(raw)
        if tooLong {
            report(n, .error, "substitution-too-long",
                   "Substituting the variables (EXT-X-DEFINE) would make this line longer than \(HLSVariables.maxLineLength) characters, "
                   + "or the playlist grow by more than \(HLSVariables.maxExpansion); the line is left as written.")
        }
        for name in undefined { report(n, .error, "undefined-variable", "{$\(name)} is not defined (EXT-X-DEFINE) before it is used.") }
        guard text.hasPrefix("#") else { return (text, nil) }
        if let colon = text.firstIndex(of: ":") { return (text, (text[..<colon], text[text.index(after: colon)...])) }
        return (text, (text, text[text.endIndex...]))
    }

    /// Tags that may appear once per playlist (RFC 8216bis §4.4.2, §4.4.3, §4.4.6).
    static let uniqueMediaTags: Set<Substring> = ["#EXT-X-VERSION", "#EXT-X-TARGETDURATION", "#EXT-X-MEDIA-SEQUENCE", "#EXT-X-DISCONTINUITY-SEQUENCE",
                                                  "#EXT-X-PLAYLIST-TYPE", "#EXT-X-ENDLIST", "#EXT-X-I-FRAMES-ONLY", "#EXT-X-PART-INF",
                                                  "#EXT-X-SERVER-CONTROL", "#EXT-X-START", "#EXT-X-INDEPENDENT-SEGMENTS"]
    static let uniqueMasterTags: Set<Substring> = ["#EXT-X-VERSION", "#EXT-X-INDEPENDENT-SEGMENTS", "#EXT-X-START"]

    // MARK: Multivariant playlists

    mutating func parseMaster(_ lines: [(offset: Int, element: HLSLine)]) -> HLSMasterPlaylist {
        var master = HLSMasterPlaylist()
        var pending: (attributes: HLSAttributeList, line: Int)?
        var seen: Set<Substring> = []
        for (n, line) in lines {
            guard let (text, tag) = resolve(line, at: n) else { continue }
            guard let (name, value) = tag else {
                // A URI line: it belongs to the preceding #EXT-X-STREAM-INF.
                if let p = pending {
                    master.variants.append(Self.variant(p.attributes, uri: String(text), iFrame: false))
                    pending = nil
                } else {
                    report(n, .warning, "uri-without-tag", "A URI with no #EXT-X-STREAM-INF before it is ignored.")
                }
                continue
            }
            if Self.uniqueMasterTags.contains(name), !seen.insert(name).inserted {
                report(n, .error, "duplicate-tag", "\(name) may appear only once.")
            }
            switch name {
            case "#EXT-X-VERSION": master.version = Int(value)
            case "#EXT-X-INDEPENDENT-SEGMENTS": master.independentSegments = true
            case "#EXT-X-STREAM-INF":
                if let p = pending { report(p.line, .error, "missing-uri", "#EXT-X-STREAM-INF is not followed by a URI; the variant is ignored.") }
                let a = HLSAttributeList(parsing: value)
                if a.integer("BANDWIDTH") == nil { report(n, .error, "missing-attribute", "#EXT-X-STREAM-INF has no BANDWIDTH.") }
                pending = (a, n)
            case "#EXT-X-I-FRAME-STREAM-INF":
                let a = HLSAttributeList(parsing: value)
                guard let uri = a["URI"] else {
                    report(n, .error, "missing-uri", "#EXT-X-I-FRAME-STREAM-INF has no URI; it is ignored.")
                    continue
                }
                master.iFramePlaylists.append(Self.variant(a, uri: uri, iFrame: true))
            case "#EXT-X-MEDIA":
                let a = HLSAttributeList(parsing: value)
                guard let type = a["TYPE"], let group = a["GROUP-ID"], let rname = a["NAME"] else {
                    report(n, .error, "missing-attribute", "#EXT-X-MEDIA needs TYPE, GROUP-ID and NAME; it is ignored.")
                    continue
                }
                master.renditions.append(HLSRendition(
                    type: type, groupID: group, name: rname, language: a["LANGUAGE"], uri: a["URI"], isDefault: a.bool("DEFAULT") ?? false,
                    autoselect: a.bool("AUTOSELECT") ?? false, forced: a.bool("FORCED") ?? false, channels: a["CHANNELS"], instreamID: a["INSTREAM-ID"]))
            case "#EXT-X-SESSION-KEY":
                master.sessionKeys.append(Self.key(HLSAttributeList(parsing: value)))
            case "#EXTINF", "#EXT-X-TARGETDURATION", "#EXT-X-MEDIA-SEQUENCE", "#EXT-X-ENDLIST":
                report(n, .error, "mixed-playlist", "\(name) is a media playlist tag, in a multivariant playlist.")
            default:
                break  // unknown and vendor tags (EXT-X-IMAGE-STREAM-INF, …) are ignored, as the RFC asks
            }
        }
        if let p = pending { report(p.line, .error, "missing-uri", "#EXT-X-STREAM-INF is not followed by a URI; the variant is ignored.") }
        if master.variants.isEmpty { report(nil, .error, "empty-playlist", "The multivariant playlist lists no variant.") }
        return master
    }

    static func variant(_ a: HLSAttributeList, uri: String, iFrame: Bool) -> HLSVariant {
        HLSVariant(uri: uri, bandwidth: a.integer("BANDWIDTH"), averageBandwidth: a.integer("AVERAGE-BANDWIDTH"), resolution: a.resolution(),
                   codecs: a["CODECS"].map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } } ?? [],
                   frameRate: a.decimal("FRAME-RATE"), audioGroup: a["AUDIO"], videoGroup: a["VIDEO"], subtitlesGroup: a["SUBTITLES"],
                   closedCaptionsGroup: a["CLOSED-CAPTIONS"], isIFrameOnly: iFrame)
    }

    static func key(_ a: HLSAttributeList) -> HLSKey {
        HLSKey(method: a["METHOD"] ?? "NONE", uri: a["URI"], iv: a["IV"], keyFormat: a["KEYFORMAT"], keyFormatVersions: a["KEYFORMATVERSIONS"])
    }
}
