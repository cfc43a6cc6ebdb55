import CGStreamer
import ReelCore

/// The current item's chapters, from GStreamer's table of contents (matroskademux posts one;
/// qtdemux in 1.22 reads no MP4 chapters) or the item's `chapter` options: said as a `chapters` event when they change, listed
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
    func properties(host: FeatureHost) -> [Property] {
        var chapter = Property.number("chapter", NumberSpec(range: 0...Double(Int32.max), whole: true), "The current chapter's index (set: seek to its start).",
                                      get: { $0.chapter.map(Double.init) }) { i in
            guard self.select(Int(i), host: host) else { throw IPCError(.unavailable, "There is no such chapter (see “chapter-list”).") }
        }
        // mpv's `add chapter ±N` steps (PgUp, PgDn); `cycle chapter` is one step.
        let step: (Double) throws -> Void = { step in
            guard let n = BoundedNumber.wholeNumber(abs(step)), n > 0, self.step(step < 0 ? -n : n, host: host) else {
                throw IPCError(.unavailable, "There is no chapter that way (see “chapter-list”).")
            }
        }
        chapter.step = step
        chapter.cycle = { backwards in try step(backwards ? -1 : 1) }
        return [
            chapter,
            .number("chapters", NumberSpec(range: 0...Double(Int.max), whole: true), "How many chapters the item has.", get: { Double($0.chapters.count) }),
            .value("chapter-list", "The chapters: title and time.", get: { EventEncoder.chapterList($0.chapters) }),
        ]
    }

    func itemStarted(_ item: PlaybackItem, switched: Bool, host: FeatureHost) {
        found = switched ? next ?? [] : []
        // The item's own (`chapter` options: a web page's, as yt-dlp gives them) when the media has none.
        if found.isEmpty { found = Chapter.list(options: item.options["chapter"] ?? []) }
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
