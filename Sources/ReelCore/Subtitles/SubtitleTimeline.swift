/// An external subtitle file's cues in time order, answering "what is shown at t" for every
/// video frame (a binary search; cues may overlap: they are shown together, in start order).
public struct SubtitleTimeline: Equatable, Sendable {
    public let cues: [SubtitleCue]
    /// The latest end among cues[0...i]: how far back an overlapping cue can start.
    private let reach: [Double]
    /// Every cue's start and end, sorted: between two of them, what is shown does not change.
    private let boundaries: [Double]

    public init(_ cues: [SubtitleCue]) {
        let sorted = cues.filter { $0.end > $0.start && !$0.text.isEmpty }.enumerated()
            .sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map(\.element)
        self.cues = sorted
        var reach: [Double] = []
        reach.reserveCapacity(sorted.count)
        for cue in sorted { reach.append(max(reach.last ?? -.infinity, cue.end)) }
        self.reach = reach
        boundaries = (sorted.map(\.start) + sorted.map(\.end)).sorted()
    }

    /// The times around `time` during which the same cues are shown (from the last start or end
    /// at or before it to the next one after it): the overlay asks again only outside it, so a
    /// frame costs no text work while nothing changes.
    public func unchangedSpan(at time: Double) -> Range<Double> {
        var low = 0, high = boundaries.count  // the first boundary after `time`
        while low < high {
            let mid = (low + high) / 2
            if boundaries[mid] <= time { low = mid + 1 } else { high = mid }
        }
        let from = low > 0 ? boundaries[low - 1] : -Double.infinity
        let until = low < boundaries.count ? boundaries[low] : Double.infinity
        return from..<until
    }

    /// The cues shown at `time` (start ≤ time < end), in start order.
    public func cues(at time: Double) -> [SubtitleCue] {
        var low = 0, high = cues.count  // the first cue starting after `time`
        while low < high {
            let mid = (low + high) / 2
            if cues[mid].start <= time { low = mid + 1 } else { high = mid }
        }
        var shown: [SubtitleCue] = []
        var i = low - 1
        while i >= 0, reach[i] > time {
            if cues[i].end > time { shown.append(cues[i]) }
            i -= 1
        }
        return shown.reversed()
    }

    /// The shown cues' text at `time` (no markup), one per line; nil for none (`sub-text`).
    public func text(at time: Double) -> String? {
        let shown = cues(at: time)
        return shown.isEmpty ? nil : shown.map(\.text).joined(separator: "\n")
    }

    /// Where the cues shown at `time` go: the first one's placement (textoverlay draws one block).
    public func placement(at time: Double) -> SubtitlePlacement? {
        cues(at: time).first?.placement
    }

    /// How the letters shown at `time` are edged: the first cue's outline.
    public func outline(at time: Double) -> SubtitleOutline? {
        cues(at: time).first?.outline
    }

    /// What the overlay draws at `time`: the shown cues' markup, one per line; "" for none.
    public func markup(at time: Double) -> String {
        cues(at: time).map(\.markup).joined(separator: "\n")
    }
}
