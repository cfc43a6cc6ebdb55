import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The live window of a dynamic MPD (ISO/IEC 23009-1 `type="dynamic"`) as Reel's live model
/// reads windows (`LiveWindowSnapshot`, the shape of an HLS media playlist), so that positions,
/// the window, `epoch-time`, `live-edge` and the LIVE badge work on DASH as on HLS.
///
/// The segments are those of one Representation (the first video one, else the first) of the
/// Period playing now (the last whose start has passed), available at `now` (§5.3.9.5.3: a
/// segment is available from `availabilityStartTime` + PeriodStart + its end, and stays within
/// `timeShiftBufferDepth` of now): a `SegmentTimeline`'s `S` entries (`r="-1"` repeats up to
/// now), or a `SegmentTemplate@duration` numbered from `startNumber` by the wall clock. Each
/// segment's wall-clock start is `availabilityStartTime` + PeriodStart + (t − presentationTimeOffset)
/// / timescale, and its stream time (dashdemux2's: seconds since `availabilityStartTime`) the
/// same without the anchor. The start distance (as HLS's HOLD-BACK) is `startDistance`; the
/// target duration `maxSegmentDuration`, else the longest segment. Pure.
public enum DASHLiveWindow {
    /// At most this many segments are kept (a day of 2 s segments; a window without
    /// `timeShiftBufferDepth` reaches back to the Period's start).
    static let maximumSegments = 43_200
    /// dashdemux2's `presentation-delay` default (GStreamer 1.22): how far behind now it starts a
    /// live MPD without `suggestedPresentationDelay`.
    public static let defaultPresentationDelay = 10.0

    /// The window at `now`; nil for a static MPD, or one without `availabilityStartTime` or
    /// segments available yet.
    public static func snapshot(_ text: String, now: Date = Date()) -> LiveWindowSnapshot? {
        guard let document = try? MPDDocument.parse(text), let root = document.rootElement(), root.localName == "MPD",
              DASHInspection.attribute(root, "type") == "dynamic",
              let anchor = DASHInspection.attribute(root, "availabilityStartTime").flatMap(date) else { return nil }
        let sinceAnchor = now.timeIntervalSince(anchor)
        let depth = DASHNumber.seconds(root, "timeShiftBufferDepth")
        let periods = DASHInspection.children(root, "Period")
        // The Period playing now: the last one that has started (a missing @start: the first's 0).
        let started = periods.enumerated().filter { (DASHNumber.seconds($0.element, "start") ?? 0) <= sinceAnchor }
        guard let period = started.last?.element ?? periods.first else { return nil }
        let periodStart = DASHNumber.seconds(period, "start") ?? 0
        guard let (rep, set) = representation(in: period) else { return nil }

        let levels = [rep, set, period]
        let templates = levels.compactMap { DASHInspection.children($0, "SegmentTemplate").first }
        guard !templates.isEmpty else { return nil }
        let timescale = DASHNumber.timescale(templates)
        let offset = templates.lazy.compactMap { DASHNumber.read($0, "presentationTimeOffset", .ticks) }.first ?? 0
        let startNumber = templates.lazy.compactMap { DASHNumber.integer($0, "startNumber") }.first ?? 1
        // Now and the window's earliest time, in the Period's presentation time (seconds).
        let nowInPeriod = sinceAnchor - periodStart
        let earliest = depth.map { nowInPeriod - $0 } ?? -Double.infinity

        // (number, start, duration) in seconds of the Period's presentation time.
        var segments: [(number: Int, start: Double, duration: Double)] = []
        if let timeline = templates.lazy.compactMap({ DASHInspection.children($0, "SegmentTimeline").first }).first {
            // Available: ended by now (1 ms of slack), not before the time-shift buffer; the newest
            // `maximumSegments` (`DASHTimeline` skips what is older by arithmetic).
            let window = DASHTimeline.Window(endsAfter: earliest * timescale + offset - 1e-9, endsBy: (nowInPeriod + 0.001) * timescale + offset,
                                             limit: maximumSegments, keepLatest: true)
            segments = DASHTimeline.walk(timeline, startNumber: startNumber, openEnd: nil, window: window).segments
                .map { ($0.number, ($0.t - offset) / timescale, $0.d / timescale) }
        } else if let d = templates.lazy.compactMap({ DASHNumber.read($0, "duration", .positiveTicks) }).first {
            let duration = d / timescale
            guard duration >= DASHNumber.minimumSegmentSeconds, nowInPeriod.isFinite else { return nil }
            // Numbers whose segments have ended by now, back to the window's start.
            let available = Int(min(DASHNumber.maximumTicks, max(0, (nowInPeriod / duration + 1e-9).rounded(.down))))
            guard available >= 1 else { return nil }
            let back = depth.map { Int(min(DASHNumber.maximumTicks, max(0, ((nowInPeriod - $0) / duration).rounded(.down)))) } ?? 0
            let first = max(0, back, available - maximumSegments)
            guard first < available else { return nil }
            segments = (first..<available).map { (startNumber + $0, Double($0) * duration, duration) }
        } else {
            return nil
        }
        guard let first = segments.first else { return nil }
        let durations = segments.map(\.duration)
        let dates = segments.map { Optional(anchor.addingTimeInterval(periodStart + $0.start)) }
        let target = DASHNumber.seconds(root, "maxSegmentDuration") ?? durations.max() ?? 0
        let delay = startDistance(suggested: DASHNumber.seconds(root, "suggestedPresentationDelay"),
                                  targetDuration: target)
        var snapshot = LiveWindowSnapshot(firstSequence: first.number, durations: durations, dates: dates, targetDuration: target,
                                          holdBack: delay, startTimeOffset: nil, hasEndList: false, receivedAt: now)
        snapshot.firstSegmentStreamTime = periodStart + first.start
        return snapshot
    }

    /// How far behind now a live MPD starts, and where "go live" goes: its
    /// `suggestedPresentationDelay`, at least three segment durations (HLS's rule, RFC 8216
    /// §6.3.3: ffmpeg suggests one segment, and from there dashdemux2 has too little to buffer
    /// before the sinks take it all); without one, dashdemux2's 10 s `presentation-delay`, at
    /// least as much. The gateway writes it into the MPD it serves, so the demuxer starts there.
    public static func startDistance(suggested: Double?, targetDuration: Double) -> Double {
        max(suggested ?? defaultPresentationDelay, 3 * targetDuration)
    }

    /// What a programme (`--live-mode restart`, `--program-start`, `--start-offset`) makes of a
    /// live MPD's window at `now`, as `LivePlaylistEditor` does for an HLS playlist: the window
    /// begins at the programme's first segment (a restart), and playback starts at the programme
    /// start (or `startOffset` after it). dashdemux2 starts `suggestedPresentationDelay` behind
    /// now, so the distance returned is where the start is, never nearer the edge than the window's
    /// start distance. Catchup: the programme's segments, closed (the gateway cuts the MPD to them,
    /// `DASHCatchup`).
    public struct Steered: Sendable {
        public var snapshot: LiveWindowSnapshot
        public var start: (rule: String, seconds: Double)?
        public var problem: String?
        /// Seconds behind now the demuxer starts (the MPD's `suggestedPresentationDelay`).
        public var delay: Double
        /// Catchup: the programme the MPD is cut to, as a static MPD (`DASHCatchup`).
        public var catchup: (start: Date, end: Date, now: Date)?
    }

    public static func steer(_ window: LiveWindowSnapshot, program: LiveProgram?, now: Date) -> Steered {
        let safe = window.safeDistance
        let live = Steered(snapshot: window, start: (safe.rule, max(0, window.duration - safe.seconds)), problem: nil, delay: safe.seconds)
        guard let program, let programStart = program.start else { return live }
        switch program.effectiveMode(at: now) {
        case .live:
            return live
        case .catchup:
            // The programme's segments, closed: what `DASHCatchup` leaves of the MPD.
            guard let programEnd = program.end else {
                var s = live
                s.problem = "catchup needs the programme's end: played live"
                return s
            }
            let kept = window.durations.indices.filter { i in
                guard let d = window.dates[i] else { return false }
                return d < programEnd && d.addingTimeInterval(window.durations[i]) > programStart
            }
            guard let lo = kept.first, let hi = kept.last else {
                var s = live
                s.problem = "the programme is not in the stream's window"
                return s
            }
            var closed = window
            closed.firstSequence += lo
            closed.durations = Array(window.durations[lo...hi])
            closed.dates = Array(window.dates[lo...hi])
            closed.firstSegmentStreamTime = window.firstSegmentStreamTime.map { $0 + window.offset(ofSegment: lo) }
            closed.hasEndList = true
            var problem: String?
            if lo == 0, let first = window.dates[0], first > programStart.addingTimeInterval(0.5) {
                problem = "the programme start is no longer in the stream's window: it begins at \(ProgramDate.format(first))"
            }
            return Steered(snapshot: closed, start: nil, problem: problem, delay: safe.seconds, catchup: (programStart, programEnd, now))
        case .restart:
            break
        }
        let ends = window.durations.indices.map { i in window.dates[i].map { $0.addingTimeInterval(window.durations[i]) } }
        guard let lo = window.durations.indices.first(where: { (ends[$0] ?? .distantPast) > programStart }), let first = window.dates[lo] else {
            var s = live
            s.problem = "the programme has not started yet (the newest segment ends before \(ProgramDate.format(programStart)))"
            return s
        }
        var problem: String?
        if lo == 0, first > programStart.addingTimeInterval(0.5) {
            problem = "the programme start is no longer in the stream's window: it begins at \(ProgramDate.format(first))"
        }
        var trimmed = window
        trimmed.firstSequence += lo
        trimmed.durations = Array(window.durations[lo...])
        trimmed.dates = Array(window.dates[lo...])
        trimmed.firstSegmentStreamTime = window.firstSegmentStreamTime.map { $0 + window.offset(ofSegment: lo) }
        let point = min(max(0, max(0, programStart.timeIntervalSince(first)) + (program.startOffset ?? 0)), trimmed.duration)
        let rule = program.startOffset != nil ? "start-offset" : "program-start"
        let delay = max(now.timeIntervalSince(first.addingTimeInterval(point)), safe.seconds)
        return Steered(snapshot: trimmed, start: (rule, point), problem: problem, delay: delay)
    }

    /// The first video Representation of a Period with its AdaptationSet, else the first one.
    static func representation(in period: XMLElement) -> (XMLElement, XMLElement)? {
        var fallback: (XMLElement, XMLElement)?
        for set in DASHInspection.children(period, "AdaptationSet") {
            for rep in DASHInspection.children(set, "Representation") {
                func value(_ name: String) -> String? { DASHInspection.attribute(rep, name) ?? DASHInspection.attribute(set, name) }
                if (value("mimeType") ?? "").hasPrefix("video/") || value("contentType") == "video" || value("height") != nil { return (rep, set) }
                if fallback == nil { fallback = (rep, set) }
            }
        }
        return fallback
    }

    /// An xs:dateTime; one without a zone is read as UTC (as dash.js and Shaka read it).
    static func date(_ text: String) -> Date? {
        let t = text.trimmingCharacters(in: .whitespaces)
        return ProgramDate.parse(t) ?? ProgramDate.parse(t + "Z")
    }
}
