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
        func periodStart(_ p: XMLElement) -> Double { DASHInspection.attribute(p, "start").flatMap(DASHInspection.isoDuration) ?? 0 }
        let from = start.timeIntervalSince(anchor)
        guard let period = periods.last(where: { periodStart($0) <= from }) ?? periods.first else { return nil }
        let offset = periodStart(period)
        // Seconds of the Period's presentation time.
        let a = from - offset, b = end.timeIntervalSince(anchor) - offset
        let nowInPeriod = now.timeIntervalSince(anchor) - offset
        let depth = DASHManifestRewriter.attribute(root, "timeShiftBufferDepth")?.stringValue.flatMap(DASHInspection.isoDuration)

        var plans: [(template: XMLElement, kept: [(number: Int, t: Double, d: Double)], timeline: Bool, timescale: Double, pto: Double)] = []
        for template in descendants(period, "SegmentTemplate") {
            let timescale = DASHInspection.attribute(template, "timescale").flatMap(Double.init).flatMap { $0 > 0 ? $0 : nil } ?? 1
            let pto = DASHInspection.attribute(template, "presentationTimeOffset").flatMap(Double.init) ?? 0
            let startNumber = DASHInspection.attribute(template, "startNumber").flatMap(Int.init) ?? 1
            var kept: [(number: Int, t: Double, d: Double)] = []
            let timeline = DASHInspection.children(template, "SegmentTimeline").first
            if let timeline {
                var t = 0.0, number = startNumber
                let entries = DASHInspection.children(timeline, "S")
                for (i, s) in entries.enumerated() {
                    if let v = DASHInspection.attribute(s, "t").flatMap(Double.init) { t = v }
                    guard let d = DASHInspection.attribute(s, "d").flatMap(Double.init), d > 0 else { continue }
                    let r = DASHInspection.attribute(s, "r").flatMap(Int.init) ?? 0
                    let next = i + 1 < entries.count ? DASHInspection.attribute(entries[i + 1], "t").flatMap(Double.init) : nil
                    var k = 0
                    while (r < 0 || k <= r), k <= 100_000 {
                        if r < 0 { if let next, t >= next { break }; if (t - pto) / timescale >= b { break } }
                        let s0 = (t - pto) / timescale, s1 = (t + d - pto) / timescale
                        if s0 < b, s1 > a { kept.append((number, t, d)) }
                        t += d
                        number += 1
                        k += 1
                    }
                }
            } else if let d = DASHInspection.attribute(template, "duration").flatMap(Double.init), d > 0 {
                let seconds = d / timescale
                // Available: ended by now, and not older than the time-shift buffer.
                let availableLast = Int((nowInPeriod / seconds + 1e-9).rounded(.down)) - 1
                let availableFirst = depth.map { max(0, Int(((nowInPeriod - $0) / seconds).rounded(.down))) } ?? 0
                let first = max(availableFirst, max(0, Int((a / seconds).rounded(.down))))
                let last = min(availableLast, Int((b / seconds - 1e-9).rounded(.up)) - 1)
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
            set(template, "presentationTimeOffset", String(Int64((pto + origin * timescale).rounded())))
            set(template, "startNumber", String(kept[0].number))
            if hasTimeline, let timeline = DASHInspection.children(template, "SegmentTimeline").first {
                for child in timeline.children ?? [] { child.detach() }
                for segment in kept {
                    let s = XMLElement(name: "S")
                    if let uri = timeline.uri { s.uri = uri }
                    s.addAttribute(XMLNode.attribute(withName: "t", stringValue: String(Int64(segment.t))) as! XMLNode)
                    s.addAttribute(XMLNode.attribute(withName: "d", stringValue: String(Int64(segment.d))) as! XMLNode)
                    timeline.addChild(s)
                }
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

    private static func set(_ element: XMLElement, _ name: String, _ value: String) {
        if let existing = DASHManifestRewriter.attribute(element, name) {
            existing.stringValue = value
        } else {
            element.addAttribute(XMLNode.attribute(withName: name, stringValue: value) as! XMLNode)
        }
    }

    private static func descendants(_ element: XMLElement, _ name: String) -> [XMLElement] {
        var out: [XMLElement] = []
        for child in (element.children ?? []).compactMap({ $0 as? XMLElement }) {
            if child.localName == name { out.append(child) } else { out += descendants(child, name) }
        }
        return out
    }
}
