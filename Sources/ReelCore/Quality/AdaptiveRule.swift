/// Reel's own choice of rendition in auto mode, on top of hlsdemux2's (which, in GStreamer 1.22,
/// looks only at the throughput of the last fragments, after each fragment): it watches the
/// buffered time ahead and how fast it fills, predicts a stall and steps down *before* the buffer
/// empties, and steps up only after the buffer has stayed healthy and the measured throughput
/// carries the higher rendition with a margin. Pure: samples in, decisions out; tested by table
/// on recorded traces (`AdaptiveRuleTests`).
///
/// The media arrives at `fill` seconds of media per second of wall-clock time: the buffer's slope
/// plus one while playing at rate 1 (hlsdemux2 parses segments as they download, so the level
/// rises with the bytes). Below 1 the buffer drains; `buffered / (1 − fill)` is the time to a
/// stall, and `fill × bandwidth` what the network carries now, long before the fragment in flight
/// completes and hlsdemux2's own estimate moves.
public struct AdaptiveRule: Sendable {
    public struct Settings: Sendable, Equatable {
        /// Step down when the buffer would run dry within this many seconds (a fragment of the
        /// highest rendition must still complete at the lower throughput: 2 s segments at a fifth
        /// of their bitrate take 10 s).
        public var stallHorizon: Double = 16
        /// Seconds of samples the fill rate is measured over.
        public var fillWindow: Double = 3
        /// A level this high means downloads are paused (hlsdemux2's high watermark is 30 s): the
        /// buffer drains by design there, never a sign of a slow network.
        public var pausedDownloadsLevel: Double = 20
        /// Step up only with at least this much buffered, held for `upHold` seconds (and as long
        /// since the last switch).
        public var upBuffer: Double = 8
        public var upHold: Double = 1
        /// No step up sooner than this after a step down (no ping-pong).
        public var upAfterDown: Double = 8
        /// A rendition is carried when its BANDWIDTH is at most this share of the throughput.
        public var upMargin: Double = 0.8
        public var downMargin: Double = 0.8
        /// A step up needs a throughput measured this recently (a fragment every 2 s while
        /// downloading; an estimate left from a burst before downloads paused is stale).
        public var freshThroughput: Double = 3
        /// How many of the last measurements, at least, must all carry a higher rendition.
        public var upEvidence = 3
        /// The probe: from a start that may be below what the network carries (nothing remembered,
        /// or a slower network remembered), the demuxer buffers at most `probeBuffer` seconds
        /// until the first decision, so that little of the start rendition is queued ahead of a
        /// step up (hlsdemux2 switches at fragment boundaries and never drops what it buffered:
        /// at its default 30 s, a fresh start at 8 Mbit/s queued ~22 s of 360p before the first
        /// step up), and a step up needs `probeUpBuffer` buffered instead of `upBuffer`. The probe
        /// ends at the first decision, or after `probeDuration` seconds of playing without one. A step
        /// up during it needs `probeUpEvidence` measurements (the slowest counts).
        public var probeBuffer: Double = 4
        public var probeUpBuffer: Double = 3
        public var probeDuration: Double = 12
        /// Measurements a step up needs during the probe (their median counts). Measured (`make bench`, hls/abr at 8 Mbit/s from nothing): with 2
        /// and a 4 s probe the first fragment's slower measurement (its connection's setup) chose
        /// 720p and 1080p came 30 s later (44 % of the trace); with 3 and 6 s, 1080p at once (81 %).
        public var probeUpEvidence = 3
        /// Seconds of measurements that must all carry it too.
        public var upWindow: Double = 6
        /// Below the highest rendition allowed, the demuxer buffers at most this many seconds
        /// (instead of hlsdemux2's 30): what it queued of a lower rendition plays before a step
        /// up shows, so a link that recovers (the oscillating traces of `make bench`) is used
        /// within seconds, not after 30 s of the lower rendition. At the top, the demuxer's own.
        public var belowTopBuffer: Double = 10

        public init() {}
    }

    public struct Sample: Sendable, Equatable {
        /// Monotonic seconds.
        public var time: Double
        /// Seconds of media buffered ahead of the playhead.
        public var buffered: Double
        /// The demuxer's measured download rate (bit/s; nil or 0 when unknown).
        public var throughput: Int?
        /// Playing at rate 1 (paused, buffering or trick modes say nothing of the network).
        public var playing: Bool

        public init(time: Double, buffered: Double, throughput: Int?, playing: Bool) {
            self.time = time
            self.buffered = buffered
            self.throughput = throughput
            self.playing = playing
        }
    }

    public enum Reason: String, Sendable, Equatable {
        case start
        case autoUp = "auto-up"
        case autoDown = "auto-down"
        case stallPredicted = "stall-predicted"
    }

    public struct Decision: Sendable, Equatable {
        /// Index into the renditions given.
        public var index: Int
        public var reason: Reason

        public init(_ index: Int, _ reason: Reason) {
            self.index = index
            self.reason = reason
        }
    }

    public var settings: Settings
    private var history: [Sample] = []
    private var lastSwitch: Double?
    private var lastDown: Double?
    private var healthySince: Double?
    /// The throughput a step up was based on: the next step up waits for a new measurement
    /// (hlsdemux2's estimate stays put while downloads pause at the high watermark).
    private var throughputAtLastUp: Int?
    /// The last throughput seen and when it last changed (a new fragment measured).
    private var lastThroughput: Int?
    private var throughputChangedAt: Double?
    /// The last few measurements (one per fragment): a step up needs all of them to carry it,
    /// so a burst of two fast fragments is not taken for a faster network.
    private var recentThroughputs: [Int] = []
    /// Every measurement of the last `upWindow` seconds.
    private var windowThroughputs: [(time: Double, value: Int)] = []
    /// The probe (see `Settings.probeBuffer`): on, and since when it has seen playing samples.
    private var probing = false
    private var probeStartedAt: Double?
    /// The last rendition observed is below the highest one allowed (`Settings.belowTopBuffer`).
    private var belowTop = false

    public init(settings: Settings = Settings()) {
        self.settings = settings
    }

    /// The rendition to start with: the highest the remembered throughput carries (with the
    /// down margin), else the first listed (the order RFC 8216 says a client starts with).
    /// - Parameter allowed: the highest BANDWIDTH the user's choice and the metered cap allow.
    public func start(bandwidths: [Int?], knownThroughput: Int?, allowed: Int? = nil) -> Decision? {
        guard !bandwidths.isEmpty else { return nil }
        let permitted = Self.permitted(bandwidths, allowed: allowed)
        guard let throughput = knownThroughput, throughput > 0 else {
            let first = permitted.contains(0) ? 0 : Self.lowest(bandwidths, among: permitted)
            return first.map { Decision($0, .start) }
        }
        let target = Double(throughput) * settings.downMargin
        let fitting = Self.highest(bandwidths, among: permitted) { Double($0) <= target }
        return (fitting ?? Self.lowest(bandwidths, among: permitted)).map { Decision($0, .start) }
    }

    /// Starts the probe when `start` (the start decision) has a higher permitted rendition above
    /// it; see `Settings.probeBuffer`.
    public mutating func beginProbe(from start: Int, bandwidths: [Int?], allowed: Int? = nil) {
        let permitted = Self.permitted(bandwidths, allowed: allowed)
        let above = bandwidths.indices.contains(start) ? bandwidths[start].map { b in Self.highest(bandwidths, among: permitted) { $0 > b } != nil } : nil
        probing = above ?? false
        belowTop = probing
        probeStartedAt = nil
    }

    /// How much the demuxer should buffer at most (seconds): `probeBuffer` during the probe, nil
    /// (the demuxer's own target) after it.
    /// `belowTopBuffer` below the highest rendition allowed, nil (the demuxer's own) at it.
    public var bufferingTarget: Double? { probing ? settings.probeBuffer : belowTop ? settings.belowTopBuffer : nil }

    /// A new sample while `current` plays; a decision when the rendition should change.
    public mutating func observe(_ sample: Sample, current: Int, bandwidths: [Int?], allowed: Int? = nil) -> Decision? {
        guard bandwidths.indices.contains(current) else { return nil }
        guard sample.playing else {
            // Time paused is no evidence: the fill rate restarts from the next sample.
            history.removeAll()
            healthySince = nil
            return nil
        }
        history.append(sample)
        history.removeAll { $0.time < sample.time - settings.fillWindow - 0.001 }
        if probing {
            if probeStartedAt == nil { probeStartedAt = sample.time }
            if let since = probeStartedAt, sample.time - since >= settings.probeDuration { probing = false }
        }
        let permitted = Self.permitted(bandwidths, allowed: allowed)
        guard let bandwidth = bandwidths[current] else { return nil }
        belowTop = Self.highest(bandwidths, among: permitted) { $0 > bandwidth } != nil

        // A new measurement (hlsdemux2 updates its estimate once per fragment).
        if sample.throughput != lastThroughput {
            lastThroughput = sample.throughput
            throughputChangedAt = sample.time
            if let t = sample.throughput, t > 0 {
                recentThroughputs = Array((recentThroughputs + [t]).suffix(settings.upEvidence))
                windowThroughputs.append((sample.time, t))
            }
        }
        windowThroughputs.removeAll { $0.time < sample.time - settings.upWindow }

        // Outside what is allowed now (a cap that came down): the highest allowed that fits.
        if !permitted.contains(current), let lower = Self.highest(bandwidths, among: permitted, { _ in true }) ?? Self.lowest(bandwidths, among: permitted) {
            return switched(to: Decision(lower, .autoDown), at: sample.time, down: true, bandwidths: bandwidths, permitted: permitted)
        }

        // A stall predicted from the buffer's slope.
        // (Below a buffering target downloads pause at it: the level then drains by design too.)
        let pausedLevel = bufferingTarget.map { $0 - 1 } ?? settings.pausedDownloadsLevel
        if let fill = fillRate(), sample.buffered < pausedLevel, fill < 0.95 {
            let drain = 1 - fill
            let timeToStall = sample.buffered / drain
            if timeToStall < settings.stallHorizon {
                let carried = fill * Double(bandwidth) * settings.downMargin
                let target = Self.highest(bandwidths, among: permitted) { $0 < bandwidth && Double($0) <= carried }
                    ?? Self.lowest(bandwidths, among: permitted)
                if let target, target != current, (bandwidths[target] ?? 0) < bandwidth {
                    return switched(to: Decision(target, .stallPredicted), at: sample.time, down: true, bandwidths: bandwidths, permitted: permitted)
                }
            }
        }

        let throughput = Double(sample.throughput ?? 0)
        // The measured throughput no longer carries this rendition while the buffer is not full.
        if throughput > 0, throughput < Double(bandwidth), sample.buffered < pausedLevel,
           sinceSwitch(sample.time) >= settings.fillWindow {
            let target = Self.highest(bandwidths, among: permitted) { Double($0) <= throughput * settings.downMargin && $0 < bandwidth }
                ?? Self.lowest(bandwidths, among: permitted)
            if let target, (bandwidths[target] ?? 0) < bandwidth {
                return switched(to: Decision(target, .autoDown), at: sample.time, down: true, bandwidths: bandwidths, permitted: permitted)
            }
        }

        // Up once the buffer has stayed healthy and the recent measurements carry it (below).
        if sample.buffered >= (probing ? settings.probeUpBuffer : settings.upBuffer) {
            if healthySince == nil { healthySince = sample.time }
        } else {
            healthySince = nil
        }
        guard let healthy = healthySince, sample.time - healthy >= settings.upHold,
              sinceSwitch(sample.time) >= settings.upHold,
              lastDown.map({ sample.time - $0 >= settings.upAfterDown }) ?? true,
              throughput > 0, sample.throughput != throughputAtLastUp,
              let measured = throughputChangedAt, sample.time - measured <= settings.freshThroughput,
              recentThroughputs.count >= (probing ? settings.probeUpEvidence : settings.upEvidence) else { return nil }
        // Straight to the highest rendition that the measurements of the last `upWindow` seconds
        // (the last few at least) carry, all but the slowest one (a fragment that met a slow
        // connection setup): a burst of fast fragments after slower ones is not a faster
        // network, and stepping one rendition at a time would fill the buffer with more of the
        // lower ones (at the start, every measurement so far counts).
        // During the probe (a handful of small fragments of the start rendition, the first of
        // them over a new connection) the median counts: measured, the slowest of three chose
        // 720p on an 8 Mbit/s link in one run of two, and four segments of it played.
        let rates = (windowThroughputs.count >= settings.upEvidence ? windowThroughputs.map(\.value) : recentThroughputs).sorted()
        let floor = probing ? rates[rates.count / 2] : rates.count > settings.upEvidence ? rates[1] : rates[0]
        guard let next = Self.highest(bandwidths, among: permitted, { $0 > bandwidth && Double($0) <= Double(floor) * settings.upMargin })
        else { return nil }
        throughputAtLastUp = sample.throughput
        return switched(to: Decision(next, .autoUp), at: sample.time, down: false, bandwidths: bandwidths, permitted: permitted)
    }

    /// Forgets the samples but not the hysteresis (a seek flushed the buffer).
    public mutating func restartSamples() {
        history.removeAll()
        healthySince = nil
    }

    /// Forgets the samples and the hysteresis (a new item, a manual choice).
    public mutating func reset() {
        history.removeAll()
        lastSwitch = nil
        lastDown = nil
        healthySince = nil
        throughputAtLastUp = nil
        probing = false
        probeStartedAt = nil
        belowTop = false
        lastThroughput = nil
        throughputChangedAt = nil
        recentThroughputs.removeAll()
        windowThroughputs.removeAll()
    }

    /// Media seconds arriving per wall-clock second over the window; nil until the window is
    /// covered.
    func fillRate() -> Double? {
        guard let first = history.first, let last = history.last else { return nil }
        let span = last.time - first.time
        guard span >= settings.fillWindow * 0.9 else { return nil }
        return max(0, (last.buffered - first.buffered) / span + 1)
    }

    private func sinceSwitch(_ now: Double) -> Double { lastSwitch.map { now - $0 } ?? .infinity }

    private mutating func switched(to decision: Decision, at time: Double, down: Bool, bandwidths: [Int?], permitted: [Int]) -> Decision {
        // The buffering target follows the new rendition at once (`Settings.belowTopBuffer`).
        belowTop = bandwidths[decision.index].map { b in Self.highest(bandwidths, among: permitted) { $0 > b } != nil } ?? false
        lastSwitch = time
        if down { lastDown = time }
        probing = false
        healthySince = nil
        history.removeAll()
        return decision
    }

    // MARK: The ladder

    /// Indices whose BANDWIDTH is known and within `allowed` (all known ones when nil).
    /// When `allowed` is below every rendition, the lowest one (what hlsdemux2 falls back to).
    static func permitted(_ bandwidths: [Int?], allowed: Int?) -> [Int] {
        let known = bandwidths.indices.filter { bandwidths[$0] != nil }
        let within = known.filter { i in allowed.map { bandwidths[i]! <= $0 } ?? true }
        return within.isEmpty ? lowest(bandwidths, among: known).map { [$0] } ?? [] : within
    }

    static func lowest(_ bandwidths: [Int?], among indices: [Int]) -> Int? {
        indices.min { (bandwidths[$0] ?? .max, $0) < (bandwidths[$1] ?? .max, $1) }
    }

    static func highest(_ bandwidths: [Int?], among indices: [Int], _ fits: (Int) -> Bool) -> Int? {
        indices.filter { bandwidths[$0].map(fits) ?? false }.max { (bandwidths[$0] ?? 0, -$0) < (bandwidths[$1] ?? 0, -$1) }
    }
}
