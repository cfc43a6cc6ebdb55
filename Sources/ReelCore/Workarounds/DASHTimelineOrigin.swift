import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// GStreamer 1.22 workaround, the decision part: a live MPD's `SegmentTimeline` starts at time 0.
///
/// dashdemux2 finds the segment for a time (its live start, a seek, the position kept across an
/// MPD refresh) with `repeat_index = ((ts − segment.start) + first.start) / duration`
/// (`gst_mpd_client2_stream_seek`, since 1.21.2's "Fix computing repeat_index when seeking in
/// stream with a start != 0 on the first fragment", commit 8a9821e805; still so upstream). A live
/// window's first `S` has a `@t` far from 0 (ffmpeg's `-window_size`: the stream's time since it
/// began), so the demuxer picks a segment that far ahead of now and waits for it: nothing plays,
/// no error, the MPD refreshed every `minimumUpdatePeriod` (seen: 5 min 48 s of waiting).
///
/// So, in a dynamic MPD, a timeline whose first `S` starts after 0 gets an `S` before it from 0
/// to that start (`first.start` is then 0 and the formula is right), and its template's
/// `startNumber` one less so that every real segment keeps its `$Number$`. The added segment is
/// before the window and never asked for (Reel clamps seeks to the window). Not applied when
/// `startNumber` is 0 and the template uses `$Number$` (there is no number before it).
public enum DASHTimelineOrigin {
    /// Edits the dynamic MPD's timelines in place; the number of timelines changed.
    @discardableResult
    public static func apply(to root: XMLElement) -> Int {
        guard DASHManifestRewriter.attribute(root, "type")?.stringValue == "dynamic" else { return 0 }
        var changed = 0
        func visit(_ element: XMLElement) {
            for child in (element.children ?? []).compactMap({ $0 as? XMLElement }) {
                if child.localName == "SegmentTimeline", let template = child.parent as? XMLElement, template.localName == "SegmentTemplate" {
                    if origin(child, template: template) { changed += 1 }
                } else {
                    visit(child)
                }
            }
        }
        visit(root)
        return changed
    }

    private static func origin(_ timeline: XMLElement, template: XMLElement) -> Bool {
        guard let first = (timeline.children ?? []).compactMap({ $0 as? XMLElement }).first(where: { $0.localName == "S" }),
              let t = DASHManifestRewriter.attribute(first, "t")?.stringValue.flatMap({ UInt64($0.trimmingCharacters(in: .whitespaces)) }),
              t > 0 else { return false }
        let numberAttribute = DASHManifestRewriter.attribute(template, "startNumber")
        guard numberAttribute == nil || DASHNumber.integer(template, "startNumber") != nil else { return false }  // out of bounds
        let startNumber = DASHNumber.integer(template, "startNumber") ?? 1
        let usesNumber = DASHManifestRewriter.attribute(template, "media")?.stringValue?.contains("$Number") ?? false
        if startNumber < 1 && usesNumber { return false }
        let before = XMLElement(name: first.name ?? "S")
        if let uri = first.uri { before.uri = uri }
        before.addAttribute(XMLNode.attribute(withName: "t", stringValue: "0") as! XMLNode)
        before.addAttribute(XMLNode.attribute(withName: "d", stringValue: String(t)) as! XMLNode)
        timeline.insertChild(before, at: first.index)
        let number = String(max(0, startNumber - 1))
        if let numberAttribute {
            numberAttribute.stringValue = number
        } else {
            template.addAttribute(XMLNode.attribute(withName: "startNumber", stringValue: number) as! XMLNode)
        }
        return true
    }
}
