import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// `reel check --watch` on a live (dynamic) MPD: the rules it is held to over time, fed one reload
/// at a time (`observe`, with the time on the MPD's `UTCTiming` clock) and the segments that could
/// not be fetched (`unavailable`). Each rule is reported once per episode, with the time since the
/// watch began. Pure: table-tested with synthetic MPDs. The DASH counterparts of `LiveWatch`'s:
///
/// - `mpd-stale`: no Representation with a `SegmentTimeline` announced a new segment for more
///   than 1.5 × the longest segment plus `minimumUpdatePeriod` (an MPD is updated before
///   `minimumUpdatePeriod` passes; a segment is announced once it is available).
/// - `publish-time-backwards`: `MPD@publishTime` earlier than at the reload before.
/// - `segment-unavailable`: a segment the MPD announces and the clock makes available that
///   cannot be fetched.
/// - `availability-clock`: the newest segment announced is not yet available on the `UTCTiming`
///   clock (its end after now), or it ended longer ago than `minimumUpdatePeriod` and two
///   segments explain: the MPD's timeline and the clock disagree.
/// - `period-change` (a warning): a Period the reload before did not have; `period-gap`: a
///   Period that does not start where the one before ends.
/// - `representation-lagging`: a Representation whose newest segment ends more than a segment
///   behind the newest one of its Period on two reloads running; `timeline-mismatch`: the
///   Representations of one AdaptationSet whose segments start at different times.
public struct DASHLiveWatch: Sendable {
    public struct Segment: Sendable, Equatable {
        public var number: Int
        /// Seconds from the Period's start (presentation time).
        public var start: Double
        public var duration: Double
        public var url: URL?
    }

    public struct Representation: Sendable, Equatable {
        public var id: String
        /// The AdaptationSet's index in its Period.
        public var set: Int
        /// Whether its segments are listed (`SegmentTimeline`) rather than counted by the clock.
        public var listed: Bool
        public var segments: [Segment]
    }

    public struct Period: Sendable, Equatable {
        public var id: String?
        /// Seconds from `availabilityStartTime`.
        public var start: Double
        public var duration: Double?
        public var representations: [Representation]

        /// Where the Period ends: its duration, else its newest listed segment's end.
        var end: Double? {
            duration.map { start + $0 } ?? representations.filter(\.listed).compactMap { $0.segments.last.map { start + $0.start + $0.duration } }.max()
        }
    }

    public struct Snapshot: Sendable, Equatable {
        public var publishTime: Date?
        public var availabilityStart: Date
        public var minimumUpdatePeriod: Double?
        /// How far back from now segments are available (nil: to the Period's start).
        public var timeShiftBufferDepth: Double?
        public var periods: [Period]

        public var longestSegment: Double { periods.flatMap { $0.representations.flatMap { $0.segments.map(\.duration) } }.max() ?? 2 }
    }

    public static let rules: [(code: String, source: String)] = [
        ("mpd-stale", "ISO/IEC 23009-1: MPD@minimumUpdatePeriod, segments announced once available"),
        ("publish-time-backwards", "ISO/IEC 23009-1: MPD@publishTime"),
        ("segment-unavailable", "ISO/IEC 23009-1: segment availability times"),
        ("availability-clock", "ISO/IEC 23009-1: availabilityStartTime and UTCTiming"),
        ("mpd-unavailable", "ISO/IEC 23009-1: MPD updates"),
        ("period-change", "ISO/IEC 23009-1: Period"), ("period-gap", "ISO/IEC 23009-1: Period@start"),
        ("representation-lagging", "DASH-IF IOP: live segments of a Period's Representations"),
        ("timeline-mismatch", "ISO/IEC 23009-1: AdaptationSet@segmentAlignment"),
    ] + LiveWatch.rules.filter { ["black-video", "frozen-video", "silent-audio"].contains($0.code) }

    /// At most this many segments of a Representation are read from one reload (the newest).
    static let segmentsKept = 2_000

    /// A reload of a dynamic MPD at `now` (the `UTCTiming` clock's time); nil for a static MPD
    /// or one that cannot be read.
    public static func snapshot(_ text: String, base: URL, now: Date) -> Snapshot? {
        guard let document = try? MPDDocument.parse(text), let root = document.rootElement(), root.localName == "MPD",
              DASHInspection.attribute(root, "type") == "dynamic",
              let anchor = DASHInspection.attribute(root, "availabilityStartTime").flatMap(DASHLiveWindow.date) else { return nil }
        let depth = DASHNumber.seconds(root, "timeShiftBufferDepth")
        let sinceAnchor = now.timeIntervalSince(anchor)
        var snapshot = Snapshot(publishTime: DASHInspection.attribute(root, "publishTime").flatMap(DASHLiveWindow.date), availabilityStart: anchor,
                                minimumUpdatePeriod: DASHNumber.seconds(root, "minimumUpdatePeriod"), timeShiftBufferDepth: depth, periods: [])
        let mpdBase = DASHSegments.baseURL(root, over: base)
        for element in DASHInspection.children(root, "Period") {
            let start = DASHNumber.seconds(element, "start") ?? snapshot.periods.last.flatMap { p in p.duration.map { p.start + $0 } } ?? 0
            var period = Period(id: DASHInspection.attribute(element, "id"), start: start, duration: DASHNumber.seconds(element, "duration"), representations: [])
            let periodBase = DASHSegments.baseURL(element, over: mpdBase)
            let nowInPeriod = sinceAnchor - start
            for (s, set) in DASHInspection.children(element, "AdaptationSet").enumerated() {
                let setBase = DASHSegments.baseURL(set, over: periodBase)
                for (n, rep) in DASHInspection.children(set, "Representation").enumerated() {
                    let id = DASHInspection.attribute(rep, "id") ?? "\(s).\(n)"
                    let templates = [rep, set, element].compactMap { DASHInspection.children($0, "SegmentTemplate").first }
                    guard !templates.isEmpty else { continue }
                    let timescale = DASHNumber.timescale(templates)
                    let offset = templates.lazy.compactMap { DASHNumber.read($0, "presentationTimeOffset", .ticks) }.first ?? 0
                    let startNumber = templates.lazy.compactMap { DASHNumber.integer($0, "startNumber") }.first ?? 1
                    let media = templates.lazy.compactMap { DASHInspection.attribute($0, "media") }.first
                    let bandwidth = DASHNumber.integer(rep, "bandwidth")
                    let repBase = DASHSegments.baseURL(rep, over: setBase)
                    func url(_ number: Int, _ time: Double) -> URL? {
                        media.flatMap { URIReference.resolve(DASHSegments.expand($0, id: id, bandwidth: bandwidth, number: number, time: time), against: repBase) }
                    }
                    var r = Representation(id: id, set: s, listed: false, segments: [])
                    if let timeline = templates.lazy.compactMap({ DASHInspection.children($0, "SegmentTimeline").first }).first {
                        // Every listed segment (the newest `segmentsKept`), those that left the
                        // time-shift window too: a timeline that stopped is still a timeline.
                        r.listed = true
                        let window = DASHTimeline.Window(limit: segmentsKept, keepLatest: true)
                        r.segments = DASHTimeline.walk(timeline, startNumber: startNumber, openEnd: period.duration.map { $0 * timescale + offset }, window: window).segments
                            .map { Segment(number: $0.number, start: ($0.t - offset) / timescale, duration: $0.d / timescale, url: url($0.number, $0.t)) }
                    } else if let d = templates.lazy.compactMap({ DASHNumber.read($0, "duration", .positiveTicks) }).first {
                        // Counted by the clock: the segments that have ended by now, within the window.
                        let duration = d / timescale
                        guard duration >= DASHNumber.minimumSegmentSeconds, nowInPeriod.isFinite else { continue }
                        var available = Int(min(DASHNumber.maximumTicks, max(0, (nowInPeriod / duration + 1e-9).rounded(.down))))
                        if let total = period.duration { available = min(available, Int((total / duration).rounded(.up))) }
                        let back = depth.map { Int(max(0, ((nowInPeriod - $0) / duration).rounded(.down))) } ?? 0
                        let first = max(0, back, available - segmentsKept)
                        if first < available {
                            r.segments = (first..<available).map { Segment(number: startNumber + $0, start: Double($0) * duration, duration: duration, url: url(startNumber + $0, Double($0) * d)) }
                        }
                    }
                    period.representations.append(r)
                }
            }
            snapshot.periods.append(period)
        }
        return snapshot
    }

    public let name: String
    private var lastPublish: Date?
    private var newestEnd: Double?
    private var advancedAt: Double?
    private var stale = false
    private var clockWrong = false
    private var periodIDs: [String?]?
    private var gaps: Set<String> = []
    private var behind: [String: Int] = [:]
    private var mismatched: Set<String> = []
    private var probed: Set<String> = []
    private var failed: Set<String> = []

    public init(name: String = "MPD") { self.name = name }

    /// The rules over one reload at `at` seconds since the watch began; `now` on the server's
    /// clock; `slack`: the time between reloads.
    public mutating func observe(_ s: Snapshot, at: Double, now: Date, slack: Double) -> [LiveWatch.Problem] {
        var out: [LiveWatch.Problem] = []
        func say(_ code: String, _ message: String, _ severity: HLSProblem.Severity = .error, variant: String? = nil) {
            out.append(LiveWatch.Problem(at: at, variant: variant ?? name, code: code, severity: severity, message: message))
        }
        let f = ISO8601DateFormatter()
        if let p = s.publishTime, let last = lastPublish, p < last {
            say("publish-time-backwards", "MPD@publishTime went back \(String(format: "%.1f", last.timeIntervalSince(p))) s: \(f.string(from: p)) after \(f.string(from: last))")
        }
        if let p = s.publishTime { lastPublish = max(p, lastPublish ?? p) }
        let segment = s.longestSegment

        // Listed segments: the newest end over every Representation, against the clock and over time.
        let ends = s.periods.flatMap { p in p.representations.filter(\.listed).compactMap { r in r.segments.last.map { p.start + $0.start + $0.duration } } }
        if let newest = ends.max() {
            if newestEnd.map({ newest > $0 + 1e-6 }) ?? true { newestEnd = newest; advancedAt = at; stale = false }
            let bound = 1.5 * segment + (s.minimumUpdatePeriod ?? 0) + slack
            if let since = advancedAt, at - since > bound, !stale {
                stale = true
                say("mpd-stale", String(format: "no new segment for %.1f s (at most %.1f s: 1.5 × the %.1f s segment, minimumUpdatePeriod and a reload)", at - since, bound, segment))
            }
            let edge = s.availabilityStart.addingTimeInterval(newest)
            let ahead = edge.timeIntervalSince(now), lateBy = -ahead - (s.minimumUpdatePeriod ?? 0) - 2 * segment
            let tolerance = max(1, segment / 2)
            if ahead > tolerance || lateBy > tolerance {
                if !clockWrong {
                    say("availability-clock", ahead > 0
                        ? String(format: "the newest segment is announced %.1f s before it ends on the UTCTiming clock (available at %@)", ahead, f.string(from: edge))
                        : String(format: "the newest segment ended %.1f s ago on the UTCTiming clock: the timeline lags the clock", -ahead))
                }
                clockWrong = true
            } else {
                clockWrong = false
            }
        }

        // Periods: new ones, and where each starts against the end of the one before.
        let ids = s.periods.map(\.id)
        if let before = periodIDs {
            for p in s.periods where !before.contains(p.id) {
                say("period-change", String(format: "a new Period %@ at %.1f s", p.id.map { "“\($0)”" } ?? "(no id)", p.start), .warning)
            }
        }
        periodIDs = ids
        for (a, b) in zip(s.periods, s.periods.dropFirst()) {
            guard let end = a.end, abs(b.start - end) > 0.5, gaps.insert("\(a.id ?? "?")→\(b.id ?? "?")").inserted else { continue }
            say("period-gap", String(format: "Period %@ starts at %.3f s, Period %@ ends at %.3f s: %@ of %.3f s", b.id ?? "?", b.start, a.id ?? "?", end,
                                     b.start > end ? "a gap" : "an overlap", abs(b.start - end)))
        }

        // Across the Representations of the Period playing now (the last that has started).
        let sinceAnchor = now.timeIntervalSince(s.availabilityStart)
        if let period = s.periods.last(where: { $0.start <= sinceAnchor }) ?? s.periods.first {
            let listed = period.representations.filter(\.listed)
            let newest = listed.compactMap { $0.segments.last.map { $0.start + $0.duration } }.max() ?? 0
            for r in listed {
                let end = r.segments.last.map { $0.start + $0.duration } ?? -Double.infinity
                let key = "\(period.id ?? "")/\(r.id)"
                if newest - end > segment + 0.5 {
                    behind[key, default: 0] += 1
                    if behind[key] == 2 {
                        say("representation-lagging", end.isFinite ? String(format: "its newest segment ends %.1f s behind the Period's newest", newest - end)
                                                                     : "it lists no segment", variant: r.id)
                    }
                } else {
                    behind[key] = 0
                }
            }
            for set in Set(listed.map(\.set)).sorted() {
                let reps = listed.filter { $0.set == set && !$0.segments.isEmpty }
                guard reps.count > 1 else { continue }
                let from = reps.map { $0.segments.first!.start }.max()!, to = reps.map { $0.segments.last!.start }.min()!
                let starts = reps.map { r in r.segments.filter { $0.start >= from - 1e-6 && $0.start <= to + 1e-6 }.map { ($0.start * 1000).rounded() } }
                guard let first = starts.first, starts.contains(where: { $0 != first }), mismatched.insert("\(period.id ?? "")/\(set)").inserted else { continue }
                say("timeline-mismatch", "the Representations \(reps.map(\.id).joined(separator: ", ")) of AdaptationSet \(set) start their segments at different times",
                    variant: reps.map(\.id).joined(separator: "+"))
            }
        }
        return out
    }

    /// The segments to fetch after a reload: newly announced ones whose availability began by
    /// `now` (at the first reload, only each Representation's newest).
    public mutating func due(_ s: Snapshot, now: Date) -> [(representation: String, url: URL)] {
        let first = probed.isEmpty
        var out: [(String, URL)] = []
        for p in s.periods {
            for r in p.representations {
                // Available: ended by now, and not yet out of the time-shift window.
                let available = r.segments.filter {
                    let end = s.availabilityStart.addingTimeInterval(p.start + $0.start + $0.duration)
                    return end <= now.addingTimeInterval(0.25) && s.timeShiftBufferDepth.map { end >= now.addingTimeInterval(-$0) } ?? true
                }
                for (k, seg) in available.enumerated() {
                    guard let url = seg.url, probed.insert(url.absoluteString).inserted else { continue }
                    if first, k != available.count - 1 { continue }
                    out.append((r.id, url))
                }
            }
        }
        return out
    }

    /// A segment announced and available that could not be fetched (`status` nil: no answer).
    public mutating func unavailable(_ url: URL, representation: String, status: Int?, at: Double) -> LiveWatch.Problem? {
        guard failed.insert(url.absoluteString).inserted else { return nil }
        return LiveWatch.Problem(at: at, variant: representation, code: "segment-unavailable", severity: .error,
                                 message: "\(url.lastPathComponent) is announced and available by the clock, " + (status.map { "answered HTTP \($0)" } ?? "gave no answer"))
    }
}
