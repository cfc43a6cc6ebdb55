import CGStreamer
import ReelCore

/// The current item's chapters, from GStreamer's table of contents (matroskademux posts one;
/// qtdemux in 1.22 reads no MP4 chapters): said as a `chapters` event when they change, listed
/// for the socket's `chapter-list`, and the target of `chapter` and PgUp/PgDn (mpv's
/// `add chapter ±1`).
@MainActor
final class Chapters: PlayerFeature {
    private(set) var list: [Chapter] = []
    /// What the table of contents said, before the duration was known to trim it.
    private var found: [Chapter] = []
    /// The next item's, come before its gapless switch started.
    private var next: [Chapter]?

    func readout(into snapshot: inout PlaybackSnapshot, host: FeatureHost) {
        snapshot.chapters = list
        snapshot.chapter = current(host: host)
    }
    func itemStarted(_ item: PlaybackItem, switched: Bool, host: FeatureHost) {
        found = switched ? next ?? [] : []
        next = nil
        list = []
        if !found.isEmpty { update(host: host) }
    }

    func tableOfContents(_ chapters: [Chapter], nextItem: Bool, host: FeatureHost) {
        if nextItem { next = chapters; return }
        found = chapters
        update(host: host)
    }

    func prerolled(host: FeatureHost) { update(host: host) }

    private func update(host: FeatureHost) {
        let chapters = ChapterNavigation.normalised(found, duration: host.duration)
        guard chapters != list else { return }
        list = chapters
        Log.debug(.engine, .info, "chapters: \(chapters.count) (\(chapters.map { String(format: "%.3f", $0.time) }.joined(separator: ", ")))")
        host.emit(.chapters(chapters))
    }

    /// The chapter playing (-1 before the first), nil without chapters.
    func current(host: FeatureHost) -> Int? { ChapterNavigation.index(at: host.position, in: list) }

    /// Seeks to chapter `index`'s start; false when there is no such chapter.
    func select(_ index: Int, host: FeatureHost) -> Bool {
        guard list.indices.contains(index) else { return false }
        Log.debug(.engine, .info, "chapters: to \(index) at \(list[index].time) s")
        host.seek(to: list[index].time, mode: .accurate)
        return true
    }

    /// mpv's `add chapter step`: false when there is no chapter that way.
    func step(_ step: Int, host: FeatureHost) -> Bool {
        guard let target = ChapterNavigation.target(from: host.position, step: step, in: list) else { return false }
        return select(target, host: host)
    }

    /// The chapters a TOC message lists (each edition's chapters; entries nested in chapters
    /// count too), with their titles. Any order; `ChapterNavigation.normalised` sorts them.
    static func parse(_ message: UnsafeMutablePointer<GstMessage>) -> [Chapter] {
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

extension Player {
    /// The current item's chapters, in time order (empty without).
    public var chapters: [Chapter] { features.first(Chapters.self)?.list ?? [] }

    /// The chapter playing (-1 before the first), nil without chapters (mpv's `chapter`).
    public var currentChapter: Int? { features.first(Chapters.self)?.current(host: self) }

    /// Seeks to chapter `index`'s start; false when there is no such chapter.
    @discardableResult
    public func selectChapter(_ index: Int) -> Bool { features.first(Chapters.self)?.select(index, host: self) ?? false }

    /// To the next (`step` 1) or previous (-1) chapter, as mpv's PgDn/PgUp; false when there is
    /// none that way.
    @discardableResult
    public func stepChapter(_ step: Int) -> Bool { features.first(Chapters.self)?.step(step, host: self) ?? false }
}
