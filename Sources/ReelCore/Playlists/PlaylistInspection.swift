import Foundation

/// What `reel inspect` says about a playlist: an HLS master (variants, renditions), an HLS media
/// playlist (target duration, segments, total duration, live / VOD / EVENT, encryption), or an
/// M3U / PLS / XSPF list (its entries as resolved, and what was wrong with the others). Pure:
/// the caller reads or fetches the bytes. URIs are redacted; per-entry option *values* (headers,
/// tokens) are never shown, only their names.
public struct PlaylistInspection: Sendable {
    /// One JSON object; `type` is "hls-master", "hls-media", "m3u", "pls" or "xspf".
    public var json: JSONValue
    /// The human form.
    public var text: String
    /// False when the playlist could not be read, or some entries were lost.
    public var ok: Bool

    /// Every string that leaves goes through `Redactor.redactText` as well: titles, names taken
    /// from file names and problems quoting a line are free text a token can hide in (the
    /// `inspect` fuzz target found one in a title made from a URI's file name).
    private init(json: JSONValue, text: String, ok: Bool) {
        self.json = Self.redacted(json)
        self.text = Redactor.redactText(text)
        self.ok = ok
    }

    private static func redacted(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let s): .string(Redactor.redactText(s))
        case .array(let items): .array(items.map(redacted))
        case .object(let pairs): .object(pairs.map { ($0.0, redacted($0.1)) })
        default: value
        }
    }

    /// Inspects playlist bytes fetched from (or read at) `location`.
    public static func inspect(_ data: Data, location: URL) -> PlaylistInspection {
        let uri = Redactor.redactURL(location.absoluteString)
        let name = MediaLocator.displayName(of: location.absoluteString)
        guard data.count <= PlaylistText.maxBytes else {
            return failure(type: PlaylistFormat.fromExtension(location.path)?.rawValue ?? "playlist", uri: uri, name: name,
                           message: String(format: tr("the file is larger than %@ MiB; not read"), "\(PlaylistText.maxBytes >> 20)"))
        }
        let text = String(decoding: data, as: UTF8.self)
        if isHLS(text, name: location.lastPathComponent) {
            do {
                let parsed = try HLSPlaylist.parseReporting(text, url: location)
                let found = switch parsed.playlist {
                case .master(let master): inspect(master: master, uri: uri, name: name, base: location)
                case .media(let media): inspect(media: media, uri: uri, name: name, base: location)
                }
                return found.adding(parsed.problems)
            } catch {
                return failure(type: "hls", uri: uri, name: name, message: error.description)
            }
        }
        let parsed = PlaylistParser.parse(data, location: location)
        return inspect(list: parsed, uri: uri, name: name)
    }

    /// HLS when it says so: `#EXTM3U` first with HLS tags, or HLS tags after a comment or with no
    /// `#EXTM3U` at all (other players accept both; the problems say what is wrong).
    static func isHLS(_ text: String, name: String) -> Bool {
        if HLSPlaylist.looksLikePlaylist(Substring(text)) { return PlaylistFormat.detect(text: text, name: name) == .hls }
        let head = text.prefix(4096)
        return head.contains("#EXT-X-TARGETDURATION") || head.contains("#EXT-X-STREAM-INF") || head.contains("#EXT-X-MEDIA-SEQUENCE")
    }

    /// The same inspection with the parser's problems listed; `ok` false when one is an error.
    private func adding(_ problems: [HLSProblem]) -> PlaylistInspection {
        guard !problems.isEmpty, case .object(var pairs) = json else { return self }
        let list: [JSONValue] = problems.map { p in
            .object([("line", .optional(p.line)), ("severity", .string(p.severity.rawValue)), ("code", .string(p.code)),
                     ("message", .string(p.message))])
        }
        let clean = !problems.contains { $0.severity == .error }
        pairs = pairs.map { $0.0 == "ok" ? ("ok", .bool(clean)) : $0 }
        pairs.append(("problems", .array(list)))
        let lines = problems.map { "  \($0.severity == .error ? "problem" : "warning"): \($0.description)" }
        return PlaylistInspection(json: .object(pairs), text: ([text] + lines).joined(separator: "\n"), ok: ok && clean)
    }

    /// An unreadable playlist (missing, refused by the server…): the same shape, `ok` false.
    public static func failure(type: String, uri: String, name: String, message: String) -> PlaylistInspection {
        let error = PlaybackError(kind: .invalidPlaylist, message: "\(name): \(message)", uri: uri)
        return PlaylistInspection(
            json: .object([("type", .string(type)), ("uri", .string(uri)), ("ok", .bool(false)), ("error", EventEncoder.errorObject(error))]),
            text: "\(name)\n  error:     \(error.code): \(error.message)", ok: false)
    }

    // MARK: HLS

    private static func inspect(master: HLSMasterPlaylist, uri: String, name: String, base: URL) -> PlaylistInspection {
        func resolved(_ reference: String) -> String {
            Redactor.redactURL(URIReference.resolve(reference, against: base)?.absoluteString ?? reference)
        }
        let variants: [JSONValue] = master.variants.map { v in
            .object([("uri", .string(resolved(v.uri))), ("bandwidth", .optional(v.bandwidth)),
                     ("averageBandwidth", .optional(v.averageBandwidth)),
                     ("resolution", .optional(v.resolution?.description)), ("codecs", .array(v.codecs.map(JSONValue.string))),
                     ("frameRate", .optional(v.frameRate)), ("audio", .optional(v.audioGroup)), ("subtitles", .optional(v.subtitlesGroup))])
        }
        let renditions: [JSONValue] = master.renditions.map { r in
            .object([("type", .string(r.type)), ("group", .string(r.groupID)), ("name", .string(r.name)),
                     ("language", .optional(r.language)), ("default", .bool(r.isDefault)), ("uri", .optional(r.uri.map(resolved)))])
        }
        let json = JSONValue.object([
            ("type", .string("hls-master")), ("uri", .string(uri)), ("ok", .bool(true)), ("version", .optional(master.version)),
            ("variants", .array(variants)), ("renditions", .array(renditions)),
            ("iFramePlaylists", .int(master.iFramePlaylists.count)), ("sessionKeys", .int(master.sessionKeys.count)),
        ])
        var lines = ["\(name): HLS master playlist, \(master.variants.count) variant\(master.variants.count == 1 ? "" : "s"), "
                     + "\(master.renditions.count) rendition\(master.renditions.count == 1 ? "" : "s")"]
        for (i, v) in master.variants.enumerated() {
            var parts = [v.bandwidth.map { "\($0) bit/s" } ?? "bandwidth unknown"]
            if let r = v.resolution { parts.append(r.description) }
            if !v.codecs.isEmpty { parts.append(v.codecs.joined(separator: ",")) }
            if let f = v.frameRate { parts.append(String(format: "%.3g fps", f)) }
            lines.append("  variant #\(i):   \(parts.joined(separator: ", "))  \(resolved(v.uri))")
        }
        for (i, r) in master.renditions.enumerated() {
            var parts = ["\(r.type) \"\(r.groupID)\" \(r.name)"]
            if let l = r.language { parts.append(l) }
            if r.isDefault { parts.append("default") }
            lines.append("  rendition #\(i): \(parts.joined(separator: ", "))\(r.uri.map { "  " + resolved($0) } ?? "")")
        }
        if !master.iFramePlaylists.isEmpty { lines.append("  I-frame playlists: \(master.iFramePlaylists.count)") }
        return PlaylistInspection(json: json, text: lines.joined(separator: "\n"), ok: true)
    }

    /// "live", "VOD" or "EVENT", as a viewer would call the playlist.
    public static func kind(of media: HLSMediaPlaylist) -> String {
        if media.playlistType == .event { return media.hasEndList ? "EVENT (ended)" : "EVENT" }
        return media.isLive ? "live" : "VOD"
    }

    private static func inspect(media: HLSMediaPlaylist, uri: String, name: String, base: URL) -> PlaylistInspection {
        let methods = Array(Set(media.keys.filter(\.isEncrypted).map(\.method))).sorted()
        let kind = kind(of: media)
        let json = JSONValue.object([
            ("type", .string("hls-media")), ("uri", .string(uri)), ("ok", .bool(true)), ("version", .optional(media.version)),
            ("kind", .string(kind)), ("live", .bool(media.isLive)), ("playlistType", .optional(media.playlistType?.rawValue)),
            ("endList", .bool(media.hasEndList)), ("targetDuration", .double(media.targetDuration)),
            ("mediaSequence", .int(media.mediaSequence)), ("segments", .int(media.segments.count)),
            ("duration", .double(media.totalDuration)), ("encrypted", .bool(!methods.isEmpty)),
            ("encryption", .array(methods.map(JSONValue.string))), ("byteRanges", .bool(media.segments.contains { $0.byteRange != nil })),
            ("initSegment", .bool(!media.maps.isEmpty)), ("discontinuities", .int(media.segments.filter(\.discontinuity).count)),
        ])
        let lines = [
            "\(name): HLS media playlist, \(kind)",
            "  target duration: \(TimeFormat.clock(media.targetDuration)) (\(JSONValue.number(media.targetDuration)) s)",
            "  segments:        \(media.segments.count) from sequence \(media.mediaSequence)",
            "  duration:        \(TimeFormat.clock(media.totalDuration)) (\(JSONValue.number(media.totalDuration)) s)\(media.isLive ? " in the window" : "")",
            "  encryption:      \(methods.isEmpty ? "none" : methods.joined(separator: ", "))",
        ]
        return PlaylistInspection(json: json, text: lines.joined(separator: "\n"), ok: true)
    }

    // MARK: M3U, PLS, XSPF

    private static func inspect(list: PlaylistParseResult, uri: String, name: String) -> PlaylistInspection {
        let entries: [JSONValue] = list.items.map { item in
            .object([("uri", .string(Redactor.redactURL(item.uri))), ("title", .optional(item.title)),
                     ("duration", .optional(item.duration)), ("options", .array(item.options.keys.sorted().map(JSONValue.string)))])
        }
        let problems: [JSONValue] = list.diagnostics.map { d in
            .object([("line", .optional(d.line)), ("message", .string(d.message)), ("fatal", .bool(d.severity == .fatal))])
        }
        let json = JSONValue.object([
            ("type", .string(list.format.rawValue)), ("uri", .string(uri)), ("ok", .bool(list.isClean)),
            ("title", .optional(list.title)), ("entries", .array(entries)), ("problems", .array(problems)),
        ])
        var lines = ["\(name): \(list.format.rawValue.uppercased()) playlist\(list.title.map { " “\($0)”" } ?? ""), "
                     + "\(list.items.count) entr\(list.items.count == 1 ? "y" : "ies")"]
        for (i, item) in list.items.enumerated() {
            let duration = item.duration.map { "  [\(TimeFormat.clock($0))]" } ?? ""
            let options = item.options.isEmpty ? "" : "  (options: \(item.options.keys.sorted().joined(separator: ", ")))"
            lines.append("  #\(i): \(item.displayTitle)\(duration)  \(Redactor.redactURL(item.uri))\(options)")
        }
        for d in list.diagnostics { lines.append("  problem: \(d.description)") }
        return PlaylistInspection(json: json, text: lines.joined(separator: "\n"), ok: list.isClean)
    }
}
