import Foundation

/// Parses M3U8 text into `HLSPlaylist` (RFC 8216 and the low-latency extensions). Lenient about
/// unknown tags and comments; strict about the header and about numbers in the tags it knows.
enum HLSParser {
    static func parse(_ text: String) throws(HLSParseError) -> HLSPlaylist {
        let lines = HLSLine.split(text)
        guard let first = lines.firstIndex(where: { !$0.trimmed.isEmpty }), lines[first].trimmed.hasPrefix("#EXTM3U") else {
            throw .notAPlaylist
        }
        let isMaster = lines.contains { line in
            guard let tag = line.tag?.name else { return false }
            return tag == "#EXT-X-STREAM-INF" || tag == "#EXT-X-I-FRAME-STREAM-INF" || tag == "#EXT-X-MEDIA"
        }
        return isMaster ? .master(try parseMaster(lines)) : .media(try parseMedia(lines))
    }

    private static func parseMaster(_ lines: [HLSLine]) throws(HLSParseError) -> HLSMasterPlaylist {
        var master = HLSMasterPlaylist()
        var pending: (attributes: HLSAttributeList, line: Int)?
        for (n, line) in lines.enumerated() {
            let text = line.trimmed
            if text.isEmpty { continue }
            guard let (name, value) = line.tag else {
                // A URI line: it belongs to the preceding #EXT-X-STREAM-INF.
                if let p = pending {
                    master.variants.append(variant(p.attributes, uri: String(text), iFrame: false))
                    pending = nil
                }
                continue
            }
            switch name {
            case "#EXT-X-VERSION": master.version = Int(value)
            case "#EXT-X-INDEPENDENT-SEGMENTS": master.independentSegments = true
            case "#EXT-X-STREAM-INF":
                if pending != nil { throw .missingURI(tag: "#EXT-X-STREAM-INF", line: pending!.line + 1) }
                pending = (HLSAttributeList(parsing: value), n)
            case "#EXT-X-I-FRAME-STREAM-INF":
                let a = HLSAttributeList(parsing: value)
                guard let uri = a["URI"] else { throw .missingURI(tag: String(name), line: n + 1) }
                master.iFramePlaylists.append(variant(a, uri: uri, iFrame: true))
            case "#EXT-X-MEDIA":
                let a = HLSAttributeList(parsing: value)
                guard let type = a["TYPE"], let group = a["GROUP-ID"], let rname = a["NAME"] else {
                    throw .invalidValue(tag: String(name), line: n + 1)
                }
                master.renditions.append(HLSRendition(
                    type: type, groupID: group, name: rname, language: a["LANGUAGE"], uri: a["URI"], isDefault: a.bool("DEFAULT") ?? false,
                    autoselect: a.bool("AUTOSELECT") ?? false, forced: a.bool("FORCED") ?? false, channels: a["CHANNELS"], instreamID: a["INSTREAM-ID"]))
            case "#EXT-X-SESSION-KEY":
                master.sessionKeys.append(key(HLSAttributeList(parsing: value)))
            default:
                break
            }
        }
        if let p = pending { throw .missingURI(tag: "#EXT-X-STREAM-INF", line: p.line + 1) }
        return master
    }

    private static func variant(_ a: HLSAttributeList, uri: String, iFrame: Bool) -> HLSVariant {
        HLSVariant(uri: uri, bandwidth: a.integer("BANDWIDTH"), averageBandwidth: a.integer("AVERAGE-BANDWIDTH"), resolution: a.resolution(),
                   codecs: a["CODECS"].map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } } ?? [],
                   frameRate: a.decimal("FRAME-RATE"), audioGroup: a["AUDIO"], videoGroup: a["VIDEO"], subtitlesGroup: a["SUBTITLES"],
                   closedCaptionsGroup: a["CLOSED-CAPTIONS"], isIFrameOnly: iFrame)
    }

    private static func key(_ a: HLSAttributeList) -> HLSKey {
        HLSKey(method: a["METHOD"] ?? "NONE", uri: a["URI"], iv: a["IV"], keyFormat: a["KEYFORMAT"], keyFormatVersions: a["KEYFORMATVERSIONS"])
    }

    private static func parseMedia(_ lines: [HLSLine]) throws(HLSParseError) -> HLSMediaPlaylist {
        var media = HLSMediaPlaylist()
        var sawTarget = false
        var sequence: Int?
        var key: HLSKey?
        var map: HLSMap?
        // What the next URI line's segment gets.
        var duration: Double?
        var title: String?
        var byteRange: HLSByteRange?
        var discontinuity = false
        var gap = false
        var dateTime: String?
        var parts: [HLSPart] = []
        // The end of the last byte range per URI, for ranges without an offset.
        var rangeEnds: [String: Int] = [:]
        var infLine = 0

        func resolved(_ range: HLSByteRange?, uri: String) -> HLSByteRange? {
            guard var range else { return nil }
            if range.offset == nil { range.offset = rangeEnds[uri] ?? 0 }
            // A range that would end past Int.max has no end: the next one without an offset starts at 0.
            rangeEnds[uri] = range.end ?? 0
            return range
        }

        for (n, line) in lines.enumerated() {
            let text = line.trimmed
            if text.isEmpty { continue }
            guard let (name, value) = line.tag else {
                guard let d = duration else { continue }  // a stray URI line without #EXTINF: ignore
                let uri = String(text)
                if sequence == nil { sequence = media.mediaSequence }
                media.segments.append(HLSSegment(
                    uri: uri, duration: d, title: title, sequence: sequence!, byteRange: resolved(byteRange, uri: uri),
                    key: key?.isEncrypted == true ? key : nil, map: map, discontinuity: discontinuity, isGap: gap,
                    programDateTime: dateTime, parts: parts))
                sequence! += 1
                duration = nil; title = nil; byteRange = nil; discontinuity = false; gap = false; dateTime = nil; parts = []
                continue
            }
            let tag = String(name)
            switch name {
            case "#EXT-X-VERSION": media.version = Int(value)
            case "#EXT-X-TARGETDURATION":
                guard let v = Double(value) else { throw .invalidValue(tag: tag, line: n + 1) }
                media.targetDuration = v
                sawTarget = true
            case "#EXT-X-MEDIA-SEQUENCE":
                guard let v = Int(value) else { throw .invalidValue(tag: tag, line: n + 1) }
                media.mediaSequence = v
            case "#EXT-X-DISCONTINUITY-SEQUENCE":
                guard let v = Int(value) else { throw .invalidValue(tag: tag, line: n + 1) }
                media.discontinuitySequence = v
            case "#EXT-X-PLAYLIST-TYPE":
                guard let v = HLSMediaPlaylist.PlaylistType(rawValue: String(value).uppercased()) else { throw .invalidValue(tag: tag, line: n + 1) }
                media.playlistType = v
            case "#EXT-X-ENDLIST": media.hasEndList = true
            case "#EXT-X-I-FRAMES-ONLY": media.isIFramesOnly = true
            case "#EXT-X-PART-INF":
                media.partTargetDuration = HLSAttributeList(parsing: value).decimal("PART-TARGET")
            case "#EXTINF":
                let durationText = value.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false)
                guard let first = durationText.first, let d = Double(first.trimmingCharacters(in: .whitespaces)), d >= 0 else {
                    throw .invalidValue(tag: tag, line: n + 1)
                }
                duration = d
                infLine = n
                if durationText.count == 2, !durationText[1].isEmpty { title = String(durationText[1]) }
            case "#EXT-X-BYTERANGE":
                guard let r = HLSByteRange(String(value)) else { throw .invalidValue(tag: tag, line: n + 1) }
                byteRange = r
            case "#EXT-X-DISCONTINUITY": discontinuity = true
            case "#EXT-X-GAP": gap = true
            case "#EXT-X-PROGRAM-DATE-TIME": dateTime = String(value)
            case "#EXT-X-KEY":
                let k = self.key(HLSAttributeList(parsing: value))
                if k.isEncrypted && k.uri == nil { throw .missingURI(tag: tag, line: n + 1) }
                key = k
            case "#EXT-X-MAP":
                let a = HLSAttributeList(parsing: value)
                guard let uri = a["URI"] else { throw .missingURI(tag: tag, line: n + 1) }
                var range: HLSByteRange?
                if let r = a["BYTERANGE"] {
                    guard let parsed = HLSByteRange(r) else { throw .invalidValue(tag: tag, line: n + 1) }
                    range = parsed
                }
                map = HLSMap(uri: uri, byteRange: range)
            case "#EXT-X-PART":
                let a = HLSAttributeList(parsing: value)
                guard let uri = a["URI"] else { throw .missingURI(tag: tag, line: n + 1) }
                guard let d = a.decimal("DURATION") else { throw .invalidValue(tag: tag, line: n + 1) }
                var range: HLSByteRange?
                if let r = a["BYTERANGE"] {
                    guard let parsed = HLSByteRange(r) else { throw .invalidValue(tag: tag, line: n + 1) }
                    range = resolved(parsed, uri: uri)
                }
                parts.append(HLSPart(uri: uri, duration: d, isIndependent: a.bool("INDEPENDENT") ?? false, byteRange: range, isGap: a.bool("GAP") ?? false))
            case "#EXT-X-PRELOAD-HINT":
                let a = HLSAttributeList(parsing: value)
                guard let uri = a["URI"] else { throw .missingURI(tag: tag, line: n + 1) }
                media.preloadHints.append(HLSPreloadHint(type: a["TYPE"] ?? "PART", uri: uri, byteRangeStart: a.integer("BYTERANGE-START"),
                                                         byteRangeLength: a.integer("BYTERANGE-LENGTH")))
            default:
                break
            }
        }
        if duration != nil { throw .missingURI(tag: "#EXTINF", line: infLine + 1) }
        guard sawTarget else { throw .missingTargetDuration }
        media.trailingParts = parts
        return media
    }
}
