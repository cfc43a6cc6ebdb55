import Foundation

/// Edits a live media playlist before the engine sees it (the gateway runs it on every media
/// playlist of a live item), and takes its `LiveWindowSnapshot`:
/// - **restart**: segments that end before the programme start are left out (the window begins
///   at the programme);
/// - **catchup**: only the segments that overlap [start, end], closed with `#EXT-X-ENDLIST` once
///   the end is in the playlist;
/// - **start steering**, until the item has started: hlsdemux2 (1.22) starts a live playlist four
///   segments before its end and reads neither `EXT-X-START` nor `HOLD-BACK`, so the newest
///   segments are held back from it until it has started where Reel wants: the safe distance
///   (`LiveWindowSnapshot.safeDistance`), the programme start, or `start-offset` seconds into the
///   window. A start nearer the edge than four segments cannot be steered this way (it is at most
///   one segment off with the three-target-duration rule).
///
/// Segments left out at the front move `#EXT-X-MEDIA-SEQUENCE` and
/// `#EXT-X-DISCONTINUITY-SEQUENCE` (RFC 8216 §6.2.2); the key, map and date in force for the
/// first segment kept are written before it. Every other byte is kept. A master playlist, a
/// playlist that does not parse, or one whose programme is not in it passes unchanged.
public struct LivePlaylistEditor: Sendable {
    public var program: LiveProgram?
    public var steersStart: Bool

    public init(program: LiveProgram?, steersStart: Bool) {
        self.program = program
        self.steersStart = steersStart
    }

    public struct Output: Sendable {
        public var text: String
        /// Nil for a master playlist or one that does not parse.
        public var snapshot: LiveWindowSnapshot?
        /// Why the programme could not be applied (no dates, not in the window yet, gone).
        public var problem: String?
        /// Where playback should start, seconds from the window's start, and the rule that says so.
        public var start: (rule: String, seconds: Double)?
    }

    private static let headerTags: Set<Substring> = [
        "#EXTM3U", "#EXT-X-VERSION", "#EXT-X-TARGETDURATION", "#EXT-X-MEDIA-SEQUENCE", "#EXT-X-DISCONTINUITY-SEQUENCE",
        "#EXT-X-PLAYLIST-TYPE", "#EXT-X-INDEPENDENT-SEGMENTS", "#EXT-X-START", "#EXT-X-SERVER-CONTROL", "#EXT-X-PART-INF",
        "#EXT-X-DEFINE", "#EXT-X-I-FRAMES-ONLY", "#EXT-X-ALLOW-CACHE", "#EXT-X-SKIP",
    ]

    public func edit(_ text: String, now: Date = Date()) -> Output {
        guard case .media(let media)? = try? HLSPlaylist.parse(text), !media.segments.isEmpty else {
            return Output(text: text, snapshot: nil, problem: nil, start: nil)
        }
        let lines = HLSLine.split(text)
        // Header, one block per segment (ending at its URI line), trailing lines.
        var headerEnd = lines.count
        for (i, line) in lines.enumerated() {
            let t = line.trimmed
            if t.isEmpty { continue }
            if let (name, _) = line.tag, Self.headerTags.contains(name) || !name.hasPrefix("#EXT") { continue }
            headerEnd = i
            break
        }
        var blocks: [Range<Int>] = []
        var blockStart = headerEnd
        for i in headerEnd..<lines.count {
            let t = lines[i].trimmed
            if !t.isEmpty && !t.hasPrefix("#") {
                blocks.append(blockStart..<(i + 1))
                blockStart = i + 1
            }
        }
        let segments = media.segments
        var snapshot = Self.snapshot(of: media, text: lines[..<headerEnd], now: now)
        guard blocks.count == segments.count else { return Output(text: text, snapshot: snapshot, problem: nil, start: nil) }

        var lo = 0, hi = segments.count - 1
        var close = false
        var problem: String?
        /// The programme start can be steered to: the stream has dates and the programme has begun.
        var programFound = false
        let mode = program?.effectiveMode(at: now) ?? .live
        // At the origin (`--timeshift-url`) the playlist is the programme already: nothing is cut.
        let atOrigin = program?.isAtOrigin == true
        if mode != .live, !atOrigin, let program, let start = program.start {
            if !snapshot.hasDates {
                problem = "the stream has no EXT-X-PROGRAM-DATE-TIME, so its programme cannot be found: played live"
            } else {
                let ends = segments.indices.map { i in snapshot.dates[i].map { $0.addingTimeInterval(segments[i].duration) } }
                if let first = segments.indices.first(where: { (ends[$0] ?? .distantPast) > start }) {
                    lo = first
                    programFound = true
                    if lo == 0, let d0 = snapshot.dates[0], d0 > start.addingTimeInterval(0.5) {
                        problem = "the programme start is no longer in the stream's window: it begins at \(ProgramDate.format(d0))"
                    }
                } else {
                    problem = "the programme has not started yet (the newest segment ends before \(ProgramDate.format(start)))"
                }
                if mode == .catchup, programFound, let end = program.end {
                    if let last = segments.indices.last(where: { (snapshot.dates[$0] ?? .distantFuture) < end }), last >= lo {
                        hi = last
                        close = media.hasEndList || (ends[last] ?? .distantPast) >= end.addingTimeInterval(-0.001)
                    } else {
                        problem = "the programme is not in the stream's window"
                        lo = 0; hi = segments.count - 1
                    }
                }
            }
        }
        close = close || media.hasEndList

        // The window as the stream has it (steering below only holds segments back for a moment).
        let windowEnd = hi
        // Steering: hlsdemux2 starts at the fourth segment from the end of what it is given.
        var start: (rule: String, seconds: Double)?
        if !close {
            let kept = Array(segments[lo...hi].map(\.duration))
            let window = kept.reduce(0, +)
            var point: Double
            var rule: String
            if mode != .live, programFound, let programStart = program?.start, let d = snapshot.dates[lo] {
                point = max(0, programStart.timeIntervalSince(d)) + (program?.startOffset ?? 0)
                rule = program?.startOffset != nil ? "start-offset" : "program-start"
            } else if mode != .live, atOrigin {
                // The origin's window begins at the programme.
                point = program?.startOffset ?? 0
                rule = program?.startOffset != nil ? "start-offset" : "program-start"
            } else if let offset = program?.startOffset {
                point = offset
                rule = "start-offset"
            } else {
                var sub = snapshot
                sub.durations = kept
                let safe = sub.safeDistance
                point = window - safe.seconds
                rule = safe.rule
            }
            point = min(max(0, point), window)
            start = (rule, point)
            if steersStart {
                let s = Self.containing(point, kept)
                let natural = max(0, kept.count - 4)
                if s < natural { hi = lo + s + 3 }
            }
        }

        let edited = lo > 0 || hi < segments.count - 1 || (close && !media.hasEndList)
        guard edited else {
            snapshot.hasEndList = close
            return Output(text: text, snapshot: snapshot, problem: problem, start: start)
        }
        let newline = lines.first.map { $0.terminator.isEmpty ? "\n" : String($0.terminator) } ?? "\n"
        var out = ""
        out.reserveCapacity(text.utf8.count)
        let droppedDiscontinuities = segments[..<lo].filter(\.discontinuity).count
        var wroteSequence = lines[..<headerEnd].contains { $0.tag?.name == "#EXT-X-MEDIA-SEQUENCE" }
        for line in lines[..<headerEnd] {
            if let (name, _) = line.tag, name == "#EXT-X-MEDIA-SEQUENCE" {
                out += "#EXT-X-MEDIA-SEQUENCE:\(media.mediaSequence + lo)" + newline
                wroteSequence = true
            } else if let (name, _) = line.tag, name == "#EXT-X-DISCONTINUITY-SEQUENCE" {
                out += "#EXT-X-DISCONTINUITY-SEQUENCE:\(media.discontinuitySequence + droppedDiscontinuities)" + newline
            } else if let (name, _) = line.tag, name == "#EXT-X-ENDLIST" {
                continue
            } else {
                out += line.content + (line.terminator.isEmpty ? Substring(newline) : line.terminator)
                if !wroteSequence, lo > 0, line.trimmed.hasPrefix("#EXTM3U") {
                    out += "#EXT-X-MEDIA-SEQUENCE:\(media.mediaSequence + lo)" + newline
                    if droppedDiscontinuities > 0, !lines[..<headerEnd].contains(where: { $0.tag?.name == "#EXT-X-DISCONTINUITY-SEQUENCE" }) {
                        out += "#EXT-X-DISCONTINUITY-SEQUENCE:\(media.discontinuitySequence + droppedDiscontinuities)" + newline
                    }
                    wroteSequence = true
                }
            }
        }
        if lo > 0 {
            // What the first segment kept inherits from those left out.
            var key: Substring?, map: Substring?
            for block in blocks[..<lo] {
                for line in lines[block] {
                    guard let (name, _) = line.tag else { continue }
                    if name == "#EXT-X-KEY" { key = line.content }
                    if name == "#EXT-X-MAP" { map = line.content }
                }
            }
            let ownTags = Set(lines[blocks[lo]].compactMap { $0.tag?.name })
            if let key, !ownTags.contains("#EXT-X-KEY") { out += key + newline }
            if let map, !ownTags.contains("#EXT-X-MAP") { out += map + newline }
            if !ownTags.contains("#EXT-X-PROGRAM-DATE-TIME"), let date = snapshot.dates[lo] {
                out += "#EXT-X-PROGRAM-DATE-TIME:\(ProgramDate.format(date))" + newline
            }
        }
        for block in blocks[lo...hi] {
            for line in lines[block] { out += line.content + (line.terminator.isEmpty ? Substring(newline) : line.terminator) }
        }
        if hi == segments.count - 1, let last = blocks.last {
            for line in lines[last.upperBound...] where line.tag?.name != "#EXT-X-ENDLIST" {
                out += line.content + (line.terminator.isEmpty ? Substring(newline) : line.terminator)
            }
        }
        if close { out += "#EXT-X-ENDLIST" + newline }

        snapshot.firstSequence = media.mediaSequence + lo
        snapshot.durations = Array(snapshot.durations[lo...windowEnd])
        snapshot.dates = Array(snapshot.dates[lo...windowEnd])
        snapshot.hasEndList = close
        return Output(text: out, snapshot: snapshot, problem: problem, start: start)
    }

    /// The index of the segment that contains `point` seconds from the first one's start (the
    /// last one when beyond).
    static func containing(_ point: Double, _ durations: [Double]) -> Int {
        var t = 0.0
        for (i, d) in durations.enumerated() {
            if point < t + d - 0.000_1 { return i }
            t += d
        }
        return max(0, durations.count - 1)
    }

    /// The snapshot of a whole media playlist: dates carried forward and back from the segments
    /// that have one.
    static func snapshot(of media: HLSMediaPlaylist, text header: ArraySlice<HLSLine>, now: Date) -> LiveWindowSnapshot {
        let segments = media.segments
        var dates: [Date?] = segments.map { $0.programDateTime.flatMap(ProgramDate.parse) }
        for i in dates.indices.dropFirst() where dates[i] == nil {
            dates[i] = dates[i - 1]?.addingTimeInterval(segments[i - 1].duration)
        }
        for i in dates.indices.reversed().dropFirst() where dates[i] == nil {
            dates[i] = dates[i + 1]?.addingTimeInterval(-segments[i].duration)
        }
        var holdBack: Double?, startOffset: Double?
        for line in header {
            guard let (name, value) = line.tag else { continue }
            let attributes = HLSAttributeList(parsing: value).attributes
            if name == "#EXT-X-SERVER-CONTROL" {
                holdBack = attributes.first { $0.name == "HOLD-BACK" }.flatMap { Double($0.value) }
            } else if name == "#EXT-X-START" {
                startOffset = attributes.first { $0.name == "TIME-OFFSET" }.flatMap { Double($0.value) }
            }
        }
        return LiveWindowSnapshot(firstSequence: media.mediaSequence, durations: segments.map(\.duration), dates: dates,
                                  targetDuration: media.targetDuration, holdBack: holdBack, startTimeOffset: startOffset,
                                  hasEndList: media.hasEndList, receivedAt: now)
    }
}
