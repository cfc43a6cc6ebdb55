import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// One `SegmentTimeline` walked within bounds, for every reader of MPDs (the live window, catch-up,
/// `reel check`'s segment list, `reel inspect`'s count): each `S` is a run of `r + 1` segments
/// (`r="-1"`: up to the next `S@t`, or `openEnd` for the last), and the segments a reader wants
/// are found by arithmetic on each run, never by stepping through what it skips — a run from
/// 1970 in 1-tick steps is one computation, not 1.76·10⁹ iterations. Numbers come through
/// `DASHNumber` (out of bounds reads as absent). Times are in ticks. Pure.
public enum DASHTimeline {
    public struct Segment: Equatable, Sendable {
        public var number: Int
        public var t: Double
        public var d: Double
    }

    /// Which segments to keep.
    public struct Window: Sendable {
        /// Kept only when its end is after this.
        public var endsAfter = -Double.infinity
        /// Kept only when its end is at most this; the walk stops at the first that is not (live:
        /// not available yet).
        public var endsBy = Double.infinity
        /// Kept only when its start is before this; the walk stops at the first that is not.
        public var startsBefore = Double.infinity
        /// At most this many, the earliest or the latest.
        public var limit = 100_000
        public var keepLatest = false
        public init(endsAfter: Double = -.infinity, endsBy: Double = .infinity, startsBefore: Double = .infinity, limit: Int = 100_000, keepLatest: Bool = false) {
            self.endsAfter = endsAfter; self.endsBy = endsBy; self.startsBefore = startsBefore; self.limit = limit; self.keepLatest = keepLatest
        }
    }

    /// The result: the segments kept, the total count and ticks of the whole timeline (nil when a
    /// last `r="-1"` has no end), and whether the walk stopped at `endsBy`/`startsBefore`.
    public struct Walk: Sendable {
        public var segments: [Segment] = []
        public var count: Int? = 0
        public var ticks = 0.0
    }

    public static func walk(_ timeline: XMLElement, startNumber: Int, openEnd: Double?, window: Window = Window()) -> Walk {
        let entries = DASHInspection.children(timeline, "S")
        var out = Walk()
        var t = 0.0
        var number = startNumber
        let limit = max(0, window.limit)
        for (i, s) in entries.enumerated() {
            if let start = DASHNumber.read(s, "t", .ticks) { t = start }
            guard let d = DASHNumber.read(s, "d", .positiveTicks) else { continue }
            let r = DASHNumber.integer(s, "r", .repeatCount) ?? 0
            // How many segments the run holds (as a Double: a run to a far end may be huge).
            var n: Double
            if r >= 0 {
                n = Double(r) + 1
            } else {
                let next = i + 1 < entries.count ? DASHNumber.read(entries[i + 1], "t", .ticks) : nil
                let end = next ?? openEnd ?? min(window.endsBy, window.startsBefore)
                if end.isFinite {
                    n = max(1, ((end - t) / d).rounded(.up))
                } else {
                    n = 1
                    if next == nil, openEnd == nil { out.count = nil }
                }
            }
            n = min(n, DASHNumber.maximumTicks)
            // The run's k (0 ≤ k < n) wanted: end t+(k+1)d in (endsAfter, endsBy], start t+kd < startsBefore.
            var lo = 0.0, hi = n  // [lo, hi)
            if window.endsAfter > -Double.infinity { lo = max(lo, ((window.endsAfter - t) / d).rounded(.down)) }
            if window.endsBy < Double.infinity {
                hi = min(hi, max(0, ((window.endsBy - t) / d).rounded(.down)))  // k + 1 segments end by it
            }
            if window.startsBefore < Double.infinity {
                hi = min(hi, max(0, ((window.startsBefore - t) / d).rounded(.up)))
            }
            // Mend the float edges by the exact conditions (a step or two at most).
            while lo > 0, t + lo * d > window.endsAfter { lo -= 1 }
            while lo < hi, t + (lo + 1) * d <= window.endsAfter { lo += 1 }
            while hi < n, t + (hi + 1) * d <= window.endsBy, t + hi * d < window.startsBefore { hi += 1 }
            var stops = hi < n
            if lo < hi {
                var from = lo, to = hi
                if to - from > Double(limit) {
                    if window.keepLatest { from = to - Double(limit) } else { to = from + Double(limit) }
                }
                var k = from
                while k < to {
                    let start = t + k * d
                    if start + d <= window.endsAfter { k += 1; continue }
                    if start + d > window.endsBy || start >= window.startsBefore { stops = true; break }
                    out.segments.append(Segment(number: saturating(number, k), t: start, d: d))
                    k += 1
                }
                if out.segments.count > 2 * limit {  // amortised: trimmed once it is twice too long
                    if window.keepLatest { out.segments.removeFirst(out.segments.count - limit) } else { out.segments.removeLast(out.segments.count - limit) }
                }
            }
            if let c = out.count { out.count = Int(min(Double(c) + n, DASHNumber.maximumTicks)) }
            out.ticks += n * d
            number = saturating(number, n)
            t += n * d
            if stops { break }
        }
        if out.segments.count > limit {
            if window.keepLatest { out.segments.removeFirst(out.segments.count - limit) } else { out.segments.removeLast(out.segments.count - limit) }
        }
        return out
    }

    /// `number + k`, never past 2^53 (nor trapping).
    private static func saturating(_ number: Int, _ k: Double) -> Int {
        Int(min(Double(number) + k, Double(DASHNumber.maximumWhole)))
    }
}
