import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Catchup on a live MPD (`--live-mode catchup`, or a restart whose end has passed): the
/// programme's segments as a static MPD, playable to its end, as `LivePlaylistEditor` closes an
/// HLS playlist. Each `SegmentTemplate` keeps the segments whose wall-clock span
/// (availabilityStartTime + PeriodStart + (t − presentationTimeOffset) / timescale) overlaps
/// [start, end]: a timeline's `S` entries (one each, times and numbers as they were), a
/// `@duration` template's numbers by the clock; `startNumber` becomes the first kept segment's
/// number and `presentationTimeOffset` one origin for all (the latest first segment's start), so
/// the programme plays from 0 with audio and video together. The MPD becomes
/// `type="static"` with `mediaPresentationDuration` the kept length; what only a live MPD has
/// (`availabilityStartTime`, `minimumUpdatePeriod`, `timeShiftBufferDepth`,
/// `suggestedPresentationDelay`, `publishTime`) goes, the Period starts at 0. Only the Period
/// holding the programme start is kept. Pure, on the rewriter's document.
public enum DASHCatchup {
    /// Edits `root` in place; the programme's length in seconds, nil (and `root` untouched)
    /// when the MPD is not dynamic or no segment of it overlaps the programme.
    @discardableResult
    /// - Parameter now: segments by the clock (`@duration`) are kept only while available then
    ///   (ended, and within `timeShiftBufferDepth`).
    public static func apply(to root: XMLElement, start: Date, end: Date, now: Date = Date()) -> Double? {
        guard DASHManifestRewriter.attribute(root, "type")?.stringValue == "dynamic",
              let anchor = DASHManifestRewriter.attribute(root, "availabilityStartTime")?.stringValue.flatMap(DASHLiveWindow.date),
              end > start else { return nil }
        let periods = DASHInspection.children(root, "Period")
        func periodStart(_ p: XMLElement) -> Double { DASHNumber.seconds(p, "start") ?? 0 }
        let from = start.timeIntervalSince(anchor)
        guard let period = periods.last(where: { periodStart($0) <= from }) ?? periods.first else { return nil }
        let offset = periodStart(period)
        // Seconds of the Period's presentation time.
        let a = from - offset, b = end.timeIntervalSince(anchor) - offset
        let nowInPeriod = now.timeIntervalSince(anchor) - offset
        let depth = DASHNumber.seconds(root, "timeShiftBufferDepth")

        var plans: [(template: XMLElement, kept: [(number: Int, t: Double, d: Double)], timeline: Bool, timescale: Double, pto: Double)] = []
        for template in descendants(period, "SegmentTemplate") {
            let timescale = DASHNumber.timescale([template])
            let pto = DASHNumber.read(template, "presentationTimeOffset", .ticks) ?? 0
            let startNumber = DASHNumber.integer(template, "startNumber") ?? 1
            var kept: [(number: Int, t: Double, d: Double)] = []
            let timeline = DASHInspection.children(template, "SegmentTimeline").first
            if let timeline {
                // Segments overlapping the programme [a, b) (seconds of the Period's presentation time).
                let window = DASHTimeline.Window(endsAfter: a * timescale + pto, startsBefore: b * timescale + pto)
                kept = DASHTimeline.walk(timeline, startNumber: startNumber, openEnd: nil, window: window).segments.map { ($0.number, $0.t, $0.d) }
            } else if let d = DASHNumber.read(template, "duration", .positiveTicks) {
                let seconds = d / timescale
                // Available: ended by now, and not older than the time-shift buffer.
                func index(_ x: Double) -> Int { Int(min(DASHNumber.maximumTicks, max(-1, x))) }  // never traps
                let availableLast = index((nowInPeriod / seconds + 1e-9).rounded(.down)) - 1
                let availableFirst = depth.map { max(0, index(((nowInPeriod - $0) / seconds).rounded(.down))) } ?? 0
                let first = max(availableFirst, max(0, index((a / seconds).rounded(.down))))
                let last = min(availableLast, index((b / seconds - 1e-9).rounded(.up)) - 1)
                guard first <= last, last - first < 100_000 else { continue }
                kept = (first...last).map { (startNumber + $0, pto + Double($0) * d, d) }
            } else {
                continue
            }
            guard !kept.isEmpty else { continue }
            plans.append((template, kept, timeline != nil, timescale, pto))
        }
        guard !plans.isEmpty else { return nil }
        // One origin for every Representation (audio and video segments need not start
        // together): the latest first segment's start, so that each has media at 0.
        let origin = plans.map { ($0.kept[0].t - $0.pto) / $0.timescale }.max() ?? 0
        let last = plans.map { p in p.kept.map { ($0.t + $0.d - p.pto) / p.timescale }.max() ?? 0 }.max() ?? origin
        let length = max(0, last - origin)

        for (template, kept, hasTimeline, timescale, pto) in plans {
            set(template, "presentationTimeOffset", DASHNumber.wholeText(pto + origin * timescale))
            set(template, "startNumber", String(kept[0].number))
            if hasTimeline, let timeline = DASHInspection.children(template, "SegmentTimeline").first {
                replace(timeline, with: kept.map { ($0.t, $0.d) })
            }
        }
        for other in periods where other !== period { other.detach() }
        set(period, "start", "PT0S")
        DASHManifestRewriter.attribute(period, "duration")?.detach()
        for name in ["availabilityStartTime", "minimumUpdatePeriod", "timeShiftBufferDepth", "suggestedPresentationDelay", "publishTime"] {
            DASHManifestRewriter.attribute(root, name)?.detach()
        }
        set(root, "type", "static")
        set(root, "mediaPresentationDuration", "PT" + String(format: "%.3f", length) + "S")
        return length
    }

    /// `timeline`'s entries replaced by one `S` (`t`, `d`) per segment.
    static func replace(_ timeline: XMLElement, with segments: [(t: Double, d: Double)]) {
        for child in timeline.children ?? [] { child.detach() }
        for segment in segments {
            let s = XMLElement(name: "S")
            if let uri = timeline.uri { s.uri = uri }
            s.addAttribute(XMLNode.attribute(withName: "t", stringValue: DASHNumber.wholeText(segment.t)) as! XMLNode)
            s.addAttribute(XMLNode.attribute(withName: "d", stringValue: DASHNumber.wholeText(segment.d)) as! XMLNode)
            timeline.addChild(s)
        }
    }

    static func set(_ element: XMLElement, _ name: String, _ value: String) {
        if let existing = DASHManifestRewriter.attribute(element, name) {
            existing.stringValue = value
        } else {
            element.addAttribute(XMLNode.attribute(withName: name, stringValue: value) as! XMLNode)
        }
    }

    static func descendants(_ element: XMLElement, _ name: String) -> [XMLElement] {
        var out: [XMLElement] = []
        for child in (element.children ?? []).compactMap({ $0 as? XMLElement }) {
            if child.localName == name { out.append(child) } else { out += descendants(child, name) }
        }
        return out
    }
}
