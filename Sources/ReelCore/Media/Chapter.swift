import Foundation

/// A chapter of the current item (a Matroska chapter, from GStreamer's table of contents): where
/// it starts, and its title when it has one.
public struct Chapter: Equatable, Sendable {
    public var title: String?
    /// Seconds into the item.
    public var time: Double

    public init(title: String?, time: Double) { self.title = title; self.time = time }
}

/// Chapter arithmetic, as mpv's `chapter` property: which chapter a position is in, and where
/// `add chapter ±n` (PgUp/PgDn) goes.
public enum ChapterNavigation {
    /// mpv's `chapter-seek-threshold`: going back within this many seconds of a chapter's start
    /// goes to the chapter before it; later, to the start of the chapter playing.
    public static let backThreshold = 5.0

    /// Chapters in time order, one per start time, none before 0 or at or after the end (a
    /// table of contents may list them in any order, twice, or past a file cut short).
    public static func normalised(_ chapters: [Chapter], duration: Double?) -> [Chapter] {
        var seen = Set<Double>()
        return chapters
            .filter { chapter in chapter.time.isFinite && chapter.time >= 0 && (duration.map { chapter.time < $0 } ?? true) }
            .sorted { $0.time < $1.time }
            .filter { seen.insert(($0.time * 1000).rounded()).inserted }
    }

    /// The chapter `position` is in: -1 before the first one (mpv's value), nil without chapters.
    public static func index(at position: Double, in chapters: [Chapter]) -> Int? {
        guard !chapters.isEmpty else { return nil }
        // A seek lands a little before the asked time (a keyframe): 10 ms counts as there.
        return (chapters.lastIndex { $0.time <= position + 0.01 }) ?? -1
    }

    /// The chapter `add chapter step` goes to from `position`: nil past the last one (mpv then
    /// goes to the end; Reel leaves it to the caller) or without chapters. Back by one within
    /// `backThreshold` of a chapter's start goes to the chapter before; later, to that chapter's
    /// start.
    public static func target(from position: Double, step: Int, in chapters: [Chapter]) -> Int? {
        guard let current = index(at: position, in: chapters), step != 0 else { return nil }
        var target = current + step
        if step < 0, current >= 0, position - chapters[current].time > backThreshold { target += 1 }
        guard target < chapters.count else { return nil }
        return max(0, target)
    }
}
