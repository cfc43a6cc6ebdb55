import Foundation

// Media playlists: segments, keys, maps, parts; every deviation a problem with its line.
extension HLSParser {
    /// Seconds as a problem message shows them: whole numbers without a fraction; any value
    /// (a playlist can say 1e300) without trapping.
    static func seconds(_ d: Double) -> String {
        d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d)
    }

    /// The largest media or discontinuity sequence number Reel takes (2^53, the largest integer
    /// every JSON reader keeps exactly). RFC 8216 allows up to 2^64 − 1, but no stream numbers that
    /// high, and numbers near Int.max overflowed the moment segments were counted from them.
    static let maxSequence = 1 << 53
    /// The longest duration a segment, part or target duration may state (one day). Longer is not
    /// a real segment; such values overflowed microsecond positions (MPRIS) and live windows.
    static let maxDuration: Double = 86_400

    mutating func parseMedia(_ lines: [(offset: Int, element: HLSLine)]) -> HLSMediaPlaylist {
        var media = HLSMediaPlaylist()
        var sawTarget = false
        var sequence: Int?
        var key: HLSKey?
        var map: HLSMap?
        var seen: Set<Substring> = []
        // What the next URI line's segment gets.
        var duration: Double?
        var title: String?
        var byteRange: (range: HLSByteRange, line: Int)?
        var discontinuity = false
        var gap = false
        var dateTime: String?
        var parts: [HLSPart] = []
        var infLine: Int?
        var segmentLines: [Int] = []
        // The end of the last byte range per URI, for ranges without an offset; and which
        // resource the previous segment was a sub-range of (nil: it was a whole resource).
        var rangeEnds: [String: Int] = [:]
        var previousRanged: String?

        func resolved(_ range: HLSByteRange?, uri: String) -> HLSByteRange? {
            guard var range else { return nil }
            if range.offset == nil { range.offset = rangeEnds[uri] ?? 0 }
            // A range that would end past Int.max has no end: the next one without an offset starts at 0.
            rangeEnds[uri] = range.end ?? 0
            return range
        }

        for (n, line) in lines {
            guard let (text, tag) = resolve(line, at: n) else { continue }
            guard let (name, value) = tag else {
                guard let d = duration else {
                    report(n, .warning, "uri-without-extinf", "A URI with no #EXTINF before it is ignored.")
                    continue
                }
                let uri = String(text)
                if let r = byteRange, r.range.offset == nil, previousRanged != uri {
                    report(r.line, .error, "impossible-byte-range",
                           "#EXT-X-BYTERANGE has no offset, but the segment before it is not a sub-range of the same resource.")
                }
                if sequence == nil { sequence = media.mediaSequence }
                media.segments.append(HLSSegment(
                    uri: uri, duration: d, title: title, sequence: sequence!, byteRange: resolved(byteRange?.range, uri: uri),
                    key: key?.isEncrypted == true ? key : nil, map: map, discontinuity: discontinuity, isGap: gap,
                    programDateTime: dateTime, parts: parts))
                segmentLines.append(infLine ?? n)
                previousRanged = byteRange == nil ? nil : uri
                sequence! += 1
                duration = nil; title = nil; byteRange = nil; discontinuity = false; gap = false; dateTime = nil; parts = []; infLine = nil
                continue
            }
            let tagName = String(name)
            if Self.uniqueMediaTags.contains(name), !seen.insert(name).inserted {
                report(n, .error, "duplicate-tag", "\(tagName) may appear only once.")
            }
            func invalid(_ what: String = "an invalid value") { report(n, .error, "invalid-value", "\(tagName) has \(what); it is ignored.") }
            switch name {
            case "#EXT-X-VERSION": media.version = Int(value)
            case "#EXT-X-TARGETDURATION":
                guard let v = Double(value), v >= 0, v <= Self.maxDuration else { invalid("an invalid value (0 to 86400 s)"); continue }
                if v != v.rounded() { report(n, .error, "invalid-value", "#EXT-X-TARGETDURATION must be a whole number of seconds.") }
                media.targetDuration = v
                sawTarget = true
            case "#EXT-X-MEDIA-SEQUENCE", "#EXT-X-DISCONTINUITY-SEQUENCE":
                guard let v = Int(value), v >= 0, v <= Self.maxSequence else { invalid("an invalid value (0 to 2^53)"); continue }
                if !media.segments.isEmpty || duration != nil {
                    report(n, .error, "tag-after-segment", "\(tagName) must come before the first segment.")
                }
                if name == "#EXT-X-MEDIA-SEQUENCE" {
                    media.mediaSequence = v
                    if media.segments.isEmpty { sequence = nil }
                } else {
                    media.discontinuitySequence = v
                }
            case "#EXT-X-PLAYLIST-TYPE":
                guard let v = HLSMediaPlaylist.PlaylistType(rawValue: String(value).uppercased()) else { invalid("an unknown type (EVENT or VOD)"); continue }
                media.playlistType = v
            case "#EXT-X-ENDLIST": media.hasEndList = true
            case "#EXT-X-I-FRAMES-ONLY": media.isIFramesOnly = true
            case "#EXT-X-PART-INF":
                media.partTargetDuration = HLSAttributeList(parsing: value).decimal("PART-TARGET").flatMap { (0...Self.maxDuration).contains($0) ? $0 : nil }
            case "#EXTINF":
                if let previous = infLine { report(previous, .warning, "dangling-extinf", "#EXTINF is not followed by a URI; it is ignored.") }
                let durationText = value.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false)
                guard let first = durationText.first, let d = Double(first.trimmingCharacters(in: .whitespaces)), d >= 0, d <= Self.maxDuration else {
                    invalid("no valid duration (0 to 86400 s)")
                    duration = nil; infLine = nil
                    continue
                }
                duration = d
                infLine = n
                if durationText.count == 2, !durationText[1].isEmpty { title = String(durationText[1]) }
            case "#EXT-X-BYTERANGE":
                guard let r = HLSByteRange(String(value)) else { invalid(); continue }
                byteRange = (r, n)
            case "#EXT-X-DISCONTINUITY": discontinuity = true
            case "#EXT-X-GAP": gap = true
            case "#EXT-X-PROGRAM-DATE-TIME": dateTime = String(value)
            case "#EXT-X-KEY":
                let k = Self.key(HLSAttributeList(parsing: value))
                if k.isEncrypted && k.uri == nil {
                    report(n, .error, "missing-uri", "#EXT-X-KEY with METHOD=\(k.method) has no URI; it is ignored.")
                    continue
                }
                key = k
            case "#EXT-X-MAP":
                let a = HLSAttributeList(parsing: value)
                guard let uri = a["URI"] else { report(n, .error, "missing-uri", "#EXT-X-MAP has no URI; it is ignored."); continue }
                var range: HLSByteRange?
                if let r = a["BYTERANGE"] {
                    range = HLSByteRange(r)
                    if range == nil { report(n, .error, "invalid-value", "#EXT-X-MAP has an invalid BYTERANGE; the whole resource is used.") }
                }
                map = HLSMap(uri: uri, byteRange: range)
            case "#EXT-X-PART":
                let a = HLSAttributeList(parsing: value)
                guard let uri = a["URI"], let d = a.decimal("DURATION"), (0...Self.maxDuration).contains(d) else {
                    report(n, .error, "missing-attribute", "#EXT-X-PART needs URI and DURATION; it is ignored.")
                    continue
                }
                var range: HLSByteRange?
                if let r = a["BYTERANGE"] {
                    guard let parsed = HLSByteRange(r) else { invalid(); continue }
                    range = resolved(parsed, uri: uri)
                }
                parts.append(HLSPart(uri: uri, duration: d, isIndependent: a.bool("INDEPENDENT") ?? false, byteRange: range, isGap: a.bool("GAP") ?? false))
            case "#EXT-X-PRELOAD-HINT":
                let a = HLSAttributeList(parsing: value)
                guard let uri = a["URI"] else { report(n, .error, "missing-uri", "#EXT-X-PRELOAD-HINT has no URI; it is ignored."); continue }
                media.preloadHints.append(HLSPreloadHint(type: a["TYPE"] ?? "PART", uri: uri, byteRangeStart: a.integer("BYTERANGE-START"),
                                                         byteRangeLength: a.integer("BYTERANGE-LENGTH")))
            case "#EXT-X-STREAM-INF", "#EXT-X-MEDIA", "#EXT-X-I-FRAME-STREAM-INF":
                report(n, .error, "mixed-playlist", "\(tagName) is a multivariant playlist tag, in a media playlist.")
            default:
                break  // unknown and vendor tags are ignored, as the RFC asks
            }
        }
        if let infLine { report(infLine, .warning, "dangling-extinf", "The last #EXTINF is not followed by a URI; it is ignored.") }
        if !sawTarget {
            media.targetDuration = (media.segments.map(\.duration).max() ?? 0).rounded(.up)
            report(nil, .error, "missing-target-duration",
                   "The media playlist has no #EXT-X-TARGETDURATION (taken as \(Self.seconds(media.targetDuration)) s, its longest segment).")
        } else {
            for (segment, line) in zip(media.segments, segmentLines) where segment.duration.rounded() > media.targetDuration {
                report(line, .error, "segment-too-long",
                       "The segment lasts \(segment.duration) s, longer than the target duration (\(Self.seconds(media.targetDuration)) s).")
            }
        }
        if media.segments.isEmpty {
            if media.hasEndList { report(nil, .error, "empty-playlist", "The playlist ends (#EXT-X-ENDLIST) without a single segment.") }
            else { report(nil, .warning, "empty-playlist", "The playlist has no segment yet.") }
        }
        media.trailingParts = parts
        return media
    }
}
