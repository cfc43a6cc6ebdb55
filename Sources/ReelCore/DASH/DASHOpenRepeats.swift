import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A live MPD's last `S@r="-1"` ("repeat up to the next S, or the end of the Period") written out
/// as the number of segments available now, at the newest `DASHLiveWindow.maximumSegments`:
/// dashdemux2 1.22 reads an open last run as endless and, while the server answers every number,
/// fetches ahead without end (+23 MB/s, 3.3 GB at 140 s). Each refresh of the MPD is bounded anew,
/// so the run grows with the live edge as the specification intends (§5.3.9.6). Pure.
enum DASHOpenRepeats {
    static func bound(_ root: XMLElement, now: Date) {
        guard DASHInspection.attribute(root, "type") == "dynamic",
              let anchor = DASHInspection.attribute(root, "availabilityStartTime").flatMap(DASHLiveWindow.date) else { return }
        let sinceAnchor = now.timeIntervalSince(anchor)
        guard sinceAnchor.isFinite else { return }
        for period in DASHInspection.children(root, "Period") {
            let nowInPeriod = sinceAnchor - (DASHNumber.seconds(period, "start") ?? 0)
            for template in templates(under: period) {
                for timeline in DASHInspection.children(template, "SegmentTimeline") {
                    bound(timeline, templates: [template] + inherited(template, upTo: period), nowInPeriod: nowInPeriod)
                }
            }
        }
    }

    private static func bound(_ timeline: XMLElement, templates: [XMLElement], nowInPeriod: Double) {
        let entries = DASHInspection.children(timeline, "S")
        guard let last = entries.last, DASHNumber.integer(last, "r", .repeatCount) == -1 else { return }
        let timescale = DASHNumber.timescale(templates)
        let offset = templates.lazy.compactMap { DASHNumber.read($0, "presentationTimeOffset", .ticks) }.first ?? 0
        // The last run's start: the runs before it walked by arithmetic (an earlier open run ends
        // at the next S@t).
        var t = 0.0
        for (i, s) in entries.enumerated() {
            if let start = DASHNumber.read(s, "t", .ticks) { t = start }
            guard i < entries.count - 1 else { break }
            guard let d = DASHNumber.read(s, "d", .positiveTicks) else { continue }
            let r = DASHNumber.integer(s, "r", .repeatCount) ?? 0
            if r >= 0 { t += Double(r + 1) * d } else { t = DASHNumber.read(entries[i + 1], "t", .ticks) ?? t + d }
        }
        guard let d = DASHNumber.read(last, "d", .positiveTicks) else { return }
        let nowTicks = nowInPeriod * timescale + offset
        let available = ((nowTicks - t) / d).rounded(.down)  // segments of the run that have ended by now
        let count = min(Double(DASHLiveWindow.maximumSegments), max(1, available.isFinite ? available : 1))
        guard let r = DASHManifestRewriter.attribute(last, "r") else { return }
        r.stringValue = String(Int(count) - 1)
    }

    /// The SegmentTemplates of a Period, its AdaptationSets and their Representations.
    private static func templates(under period: XMLElement) -> [XMLElement] {
        var found = DASHInspection.children(period, "SegmentTemplate")
        for set in DASHInspection.children(period, "AdaptationSet") {
            found += DASHInspection.children(set, "SegmentTemplate")
            for rep in DASHInspection.children(set, "Representation") { found += DASHInspection.children(rep, "SegmentTemplate") }
        }
        return found
    }

    /// The templates a template inherits from (its parent's parent's, up to the Period's).
    private static func inherited(_ template: XMLElement, upTo period: XMLElement) -> [XMLElement] {
        var out: [XMLElement] = []
        var level = (template.parent as? XMLElement)?.parent as? XMLElement
        while let element = level {
            out += DASHInspection.children(element, "SegmentTemplate")
            if element === period { break }
            level = element.parent as? XMLElement
        }
        return out
    }
}
