import CGStreamer
import ReelCore

/// A TOC message read as chapters (the bus hands them to the features' `tableOfContents` hook).
enum TableOfContents {
    /// The chapters a TOC message lists (each edition's chapters; entries nested in chapters
    /// count too), with their titles. Any order; `ChapterNavigation.normalised` sorts them.
    static func chapters(in message: UnsafeMutablePointer<GstMessage>) -> [Chapter] {
        var toc: OpaquePointer?
        var updated: gboolean = 0
        gst_message_parse_toc(message, &toc, &updated)
        guard let toc else { return [] }
        defer { gst_mini_object_unref(UnsafeMutablePointer<GstMiniObject>(toc)) }
        var chapters: [Chapter] = []
        func walk(_ list: UnsafeMutablePointer<GList>?, depth: Int) {
            var node = list
            while let n = node, chapters.count < 10_000 {
                if let entry = n.pointee.data.map(OpaquePointer.init) {
                    if gst_toc_entry_get_entry_type(entry) == GST_TOC_ENTRY_TYPE_CHAPTER {
                        var start: gint64 = -1, stop: gint64 = -1
                        if gst_toc_entry_get_start_stop_times(entry, &start, &stop) != 0, start >= 0 {
                            let title = gst_toc_entry_get_tags(entry).flatMap { tags -> String? in
                                guard let t = reel_taglist_title(tags) else { return nil }
                                defer { g_free(t) }
                                return String(cString: t)
                            }
                            chapters.append(Chapter(title: title, time: Double(start) / 1e9))
                        }
                    }
                    if depth < 8 { walk(gst_toc_entry_get_sub_entries(entry), depth: depth + 1) }
                }
                node = n.pointee.next
            }
        }
        walk(gst_toc_get_entries(toc), depth: 0)
        return chapters
    }
}
