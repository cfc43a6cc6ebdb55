import Foundation

/// A chapter of the current item (a Matroska chapter, from GStreamer's table of contents): where
/// it starts, and its title when it has one.
public struct Chapter: Equatable, Sendable {
    public var title: String?
    /// Seconds into the item.
    public var time: Double

    public init(title: String?, time: Double) { self.title = title; self.time = time }

    /// An item's `chapter` options (`START TITLE`, seconds then the title, as `YTDLInfo` writes
    /// them); a line whose start is not a time is left out.
    public static func list(options: [String]) -> [Chapter] {
        options.compactMap { line in
            let parts = line.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
            guard let first = parts.first, let time = Double(first), time.isFinite, time >= 0 else { return nil }
            let title = parts.count > 1 ? String(parts[1]) : ""
            return Chapter(title: title.isEmpty ? nil : title, time: time)
        }
    }
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
    /// `chapters` in time order (`normalised`): a binary search, since the window asks at every
    /// position it shows and an item may have 10,000 chapters.
    public static func index(at position: Double, in chapters: [Chapter]) -> Int? {
        guard !chapters.isEmpty else { return nil }
        // A seek lands a little before the asked time (a keyframe): 10 ms counts as there.
        let limit = position + 0.01
        var low = 0, high = chapters.count  // the first chapter after `limit` is in low..<high+1
        while low < high {
            let mid = (low + high) / 2
            if chapters[mid].time <= limit { low = mid + 1 } else { high = mid }
        }
        return low - 1
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

/// What the seek bar draws of many chapters: GTK 3 adds its marks one by one (quadratic: 10,000
/// froze the window ~100 s), so chapters closer than a few pixels are one mark, and the tooltip
/// lists the chapters around the one playing.
public enum ChapterMarks {
    /// Pixels between two marks at the least.
    public static let spacing = 3.0
    /// Chapters the tooltip lists at the most.
    public static let tooltipLines = 15

    /// The times to mark on a bar `width` pixels wide spanning `duration` seconds: the first
    /// chapter of each run closer than `spacing` pixels; at most width / spacing + 1.
    public static func merged(_ chapters: [Chapter], duration: Double, width: Int) -> [Double] {
        guard duration.isFinite, duration > 0 else { return Array(chapters.prefix(max(1, width)).map(\.time)) }
        let secondsApart = duration * spacing / Double(max(1, width))
        var marks: [Double] = []
        for chapter in chapters where marks.last.map({ chapter.time - $0 >= secondsApart }) ?? true {
            marks.append(chapter.time)
        }
        return marks
    }

    /// The chapters the tooltip lists: `tooltipLines` around `current` (the one playing).
    public static func tooltipRange(count: Int, current: Int) -> Range<Int> {
        guard count > tooltipLines else { return 0..<count }
        let start = min(max(0, current - tooltipLines / 2), count - tooltipLines)
        return start..<(start + tooltipLines)
    }
}
