import Foundation

/// The most segments of a live media playlist Reel passes on to the engine: the newest
/// `maximumSegments`. A server may list a window of any length (a 16 MB playlist of 150,000
/// segments, refreshed every 2 s, kept Reel's gateway and hlsdemux2 parsing — the demuxer under
/// the lock its seeking query waits on — until start-up failed or the socket answered in 6–8 s:
/// issue 28, item 9). 10,000 segments is 5.5 hours of 2 s segments, 16 hours of 6 s ones.
///
/// The cut is made on lines, before any parse (so its cost follows the lines, not the parser):
/// the segments left out move `#EXT-X-MEDIA-SEQUENCE` and `#EXT-X-DISCONTINUITY-SEQUENCE`
/// (RFC 8216 §6.2.2), and what they set for the first segment kept is written before it: the
/// last `#EXT-X-KEY` of each KEYFORMAT, the last `#EXT-X-MAP`, its `#EXT-X-PROGRAM-DATE-TIME`
/// (carried forward by the durations) and a byte range's implied offset. A playlist with
/// `#EXT-X-ENDLIST` (it is parsed once), one with `#EXT-X-SKIP` (a delta update) or one within
/// the cap passes unchanged. A playlist the parser finds faults in may be cut differently from
/// what the parser would call its newest segments, but stays a playlist (the fuzz lane checks
/// both).
public enum LiveWindowCap {
    public static let maximumSegments = 10_000

    public struct Output: Sendable, Equatable {
        public var text: String
        /// How many segments were left out at the front (0: unchanged).
        public var dropped: Int
    }

    public static func cap(_ text: String, maximumSegments: Int = LiveWindowCap.maximumSegments) -> Output {
        let unchanged = Output(text: text, dropped: 0)
        guard maximumSegments > 0 else { return unchanged }
        let lines = HLSLine.split(text)
        // Segment URI lines: a URI after an #EXTINF (as the parser reads them: a URI without one
        // is ignored).
        var uriLines: [Int] = []
        var sawInf = false
        for (i, line) in lines.enumerated() {
            let t = line.trimmed
            if t.isEmpty { continue }
            if t.hasPrefix("#") {
                if t.hasPrefix("#EXT-X-ENDLIST") || t.hasPrefix("#EXT-X-SKIP") || t.hasPrefix("#EXT-X-STREAM-INF") { return unchanged }
                if t.hasPrefix("#EXTINF:") { sawInf = true }
                continue
            }
            if sawInf { uriLines.append(i) }
            sawInf = false
        }
        guard uriLines.count > maximumSegments else { return unchanged }
        let dropped = uriLines.count - maximumSegments
        let cut = uriLines[dropped - 1] + 1  // the first line of the first segment kept
        // The header: lines before the first segment's first tag.
        var headerEnd = uriLines[0]
        while headerEnd > 0, Self.isSegmentTag(lines[headerEnd - 1]) || lines[headerEnd - 1].trimmed.isEmpty { headerEnd -= 1 }
        // What the segments left out set for the first one kept.
        var keys: [String: Substring] = [:]  // KEYFORMAT → its last key line
        var keyOrder: [String] = []
        var map: Substring?
        var date: Date?
        var discontinuities = 0
        var nextOffset: (uri: Substring, offset: Int)?
        var pendingRange: (length: Int, offset: Int?)?
        var duration = 0.0
        var mediaSequence = 0, discontinuitySequence = 0
        for line in lines[..<headerEnd] {
            guard let (name, value) = line.tag else { continue }
            if name == "#EXT-X-MEDIA-SEQUENCE" || name == "#EXT-X-DISCONTINUITY-SEQUENCE" {
                guard let n = Int(value.trimmingSpaces) else { return unchanged }  // the parser's to refuse
                if name == "#EXT-X-MEDIA-SEQUENCE" { mediaSequence = n } else { discontinuitySequence = n }
            }
        }
        // Sequence numbers the parser would refuse (over 2^53) are left to it.
        guard (0...(1 << 53)).contains(mediaSequence), (0...(1 << 53)).contains(discontinuitySequence) else { return unchanged }
        for i in headerEnd..<cut {
            let line = lines[i]
            if let (name, value) = line.tag {
                switch name {
                case "#EXT-X-KEY":
                    let format = HLSAttributeList(parsing: value).attributes.first { $0.name == "KEYFORMAT" }?.value ?? "identity"
                    if keys[format] == nil { keyOrder.append(format) }
                    keys[format] = line.content
                case "#EXT-X-MAP": map = line.content
                case "#EXT-X-PROGRAM-DATE-TIME":
                    date = ProgramDate.parse(String(value))
                    duration = 0
                case "#EXT-X-DISCONTINUITY": discontinuities += 1
                case "#EXTINF": duration += Double(value.prefix { $0 != "," }.trimmingSpaces).flatMap { $0.isFinite && $0 >= 0 && $0 <= 86_400 ? $0 : nil } ?? 0
                case "#EXT-X-BYTERANGE":
                    if let range = HLSByteRange(String(value)) { pendingRange = (range.length, range.offset) }
                default: break
                }
            } else if !line.trimmed.isEmpty {
                if let r = pendingRange {
                    let start = r.offset ?? (nextOffset?.uri == line.trimmed ? nextOffset!.offset : 0)
                    nextOffset = BoundedNumber.sum(start, r.length).map { (line.trimmed, $0) }
                } else {
                    nextOffset = nil
                }
                pendingRange = nil
            }
        }
        let newline = lines.first.map { $0.terminator.isEmpty ? "\n" : String($0.terminator) } ?? "\n"
        func write(_ line: HLSLine, to out: inout String) { out += line.content + (line.terminator.isEmpty ? Substring(newline) : line.terminator) }
        var out = ""
        out.reserveCapacity(text.utf8.count / max(1, uriLines.count) * maximumSegments + 4096)
        var wroteSequence = false, wroteDiscontinuity = false
        for line in lines[..<headerEnd] {
            switch line.tag?.name {
            case "#EXT-X-MEDIA-SEQUENCE":
                out += "#EXT-X-MEDIA-SEQUENCE:\(mediaSequence + dropped)" + newline
                wroteSequence = true
            case "#EXT-X-DISCONTINUITY-SEQUENCE":
                out += "#EXT-X-DISCONTINUITY-SEQUENCE:\(discontinuitySequence + discontinuities)" + newline
                wroteDiscontinuity = true
            default:
                write(line, to: &out)
                if line.trimmed.hasPrefix("#EXTM3U") || line.content.hasPrefix("\u{FEFF}#EXTM3U") {
                    if !wroteSequence, !lines[..<headerEnd].contains(where: { $0.tag?.name == "#EXT-X-MEDIA-SEQUENCE" }) {
                        out += "#EXT-X-MEDIA-SEQUENCE:\(mediaSequence + dropped)" + newline
                        wroteSequence = true
                    }
                    if discontinuities > 0, !wroteDiscontinuity, !lines[..<headerEnd].contains(where: { $0.tag?.name == "#EXT-X-DISCONTINUITY-SEQUENCE" }) {
                        out += "#EXT-X-DISCONTINUITY-SEQUENCE:\(discontinuitySequence + discontinuities)" + newline
                        wroteDiscontinuity = true
                    }
                }
            }
        }
        // The first segment kept: what it inherits, unless it says so itself.
        let firstBlock = lines[cut...uriLines[dropped]]
        let own = Set(firstBlock.compactMap { $0.tag?.name })
        if !own.contains("#EXT-X-KEY") { for format in keyOrder { out += keys[format]! + newline } }
        if let map, !own.contains("#EXT-X-MAP") { out += map + newline }
        if let date, !own.contains("#EXT-X-PROGRAM-DATE-TIME") {
            out += "#EXT-X-PROGRAM-DATE-TIME:\(ProgramDate.format(date.addingTimeInterval(duration)))" + newline
        }
        for line in firstBlock {
            if let (name, value) = line.tag, name == "#EXT-X-BYTERANGE", let range = HLSByteRange(String(value)), range.offset == nil {
                let uri = lines[uriLines[dropped]].trimmed
                out += "#EXT-X-BYTERANGE:\(range.length)@\(nextOffset?.uri == uri ? nextOffset!.offset : 0)" + newline
            } else {
                write(line, to: &out)
            }
        }
        for line in lines[(uriLines[dropped] + 1)...] { write(line, to: &out) }
        return Output(text: out, dropped: dropped)
    }

    /// A tag that belongs to the segment after it (not to the playlist's header).
    private static func isSegmentTag(_ line: HLSLine) -> Bool {
        guard let name = line.tag?.name else { return false }
        return ["#EXTINF", "#EXT-X-BYTERANGE", "#EXT-X-DISCONTINUITY", "#EXT-X-KEY", "#EXT-X-MAP", "#EXT-X-PROGRAM-DATE-TIME",
                "#EXT-X-GAP", "#EXT-X-BITRATE", "#EXT-X-DATERANGE", "#EXT-X-CUE-OUT", "#EXT-X-CUE-IN", "#EXT-X-PART"].contains(name)
    }
}
