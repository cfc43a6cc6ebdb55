import Foundation
import ReelCore
import ReelTestSupport
import XCTest

/// `AdaptiveRule` on traces: a bandwidth schedule played through a model of hlsdemux2 (2 s
/// segments downloaded one after another at the schedule's rate, parsed as they arrive, the
/// rendition changed at fragment boundaries, downloads paused at 30 s buffered (or the rule's
/// `bufferingTarget`, as Reel sets hlsdemux2's `max-buffering-time`), its throughput
/// estimate the minimum of the last fragment's and the last three's average), sampled every
/// 0.25 s as Reel samples the demuxer.
final class AdaptiveRuleTests: XCTestCase {
    /// The fixture's ladder (hls/abr): 360p, 720p, 1080p.
    let ladder: [Int?] = [680_000, 2_310_000, 5_550_000]

    struct Outcome {
        var decisions: [(time: Double, decision: AdaptiveRule.Decision)] = []
        var stallSeconds = 0.0
        var stalls = 0
        /// Mean BANDWIDTH of the media played (bit/s).
        var meanBitrate = 0.0
        /// The same, of the media played after its first 10 s.
        var meanBitrateAfter10 = 0.0
        var reasons: [String] { decisions.map { "\($0.decision.index) \($0.decision.reason.rawValue)" } }
    }

    /// Plays `seconds` of a stream whose schedule gives the bit rate at each wall-clock second.
    func simulate(_ schedule: (Double) -> Double, seconds: Double = 60, start: Int = 0, rule: AdaptiveRule = AdaptiveRule(),
                  probe: Bool = false) -> Outcome {
        var rule = rule
        if probe { rule.beginProbe(from: start, bandwidths: ladder) }
        var outcome = Outcome()
        let dt = 0.01, segment = 2.0
        var t = 0.0, buffered = 0.0, current = start, downloading = start
        var fragmentDone = 0.0  // bits of the fragment in flight
        var fragmentStart = 0.0
        var rates: [Double] = []
        var estimate: Int?
        var stalled = true  // starting: waits for the first second of media
        var played = 0.0, playedBits = 0.0, bitsAfter10 = 0.0
        // What is buffered, in order: seconds of media of each rendition (what plays is what was
        // queued first, as with hlsdemux2, which never drops what it buffered at a switch).
        var queued: [(seconds: Double, rendition: Int)] = []
        var nextSample = 0.0
        while t < seconds {
            // Download (a fragment once started is finished; the next waits below 30 s).
            if buffered < (rule.bufferingTarget ?? 30) || fragmentDone > 0 {
                let size = Double(ladder[downloading]!) * segment
                let bits = schedule(t) * dt
                let before = fragmentDone
                fragmentDone = min(size, fragmentDone + bits)
                let arrived = (fragmentDone - before) / Double(ladder[downloading]!)
                buffered += arrived
                if let last = queued.last, last.rendition == downloading { queued[queued.count - 1].seconds += arrived }
                else { queued.append((arrived, downloading)) }
                if fragmentDone >= size {
                    // A measured rate is never exactly the same twice (request latency, timer
                    // granularity): ±1 %, deterministic.
                    rates.append(size / max(dt, t + dt - fragmentStart) * (1 + 0.01 * sin(Double(rates.count) * 2.1)))
                    let recent = rates.suffix(3)
                    estimate = Int(min(rates.last!, recent.reduce(0, +) / Double(recent.count)))
                    fragmentDone = 0
                    fragmentStart = t + dt
                    downloading = current
                }
            } else {
                fragmentStart = t + dt
            }
            // Play.
            if stalled {
                if buffered >= 1 { stalled = false } else if played > 0 { outcome.stallSeconds += dt }
            } else if buffered <= 0 {
                stalled = true
                outcome.stalls += 1
            } else {
                var step = min(dt, buffered)
                buffered -= step
                while step > 1e-12, !queued.isEmpty {
                    let part = min(step, queued[0].seconds)
                    let bits = part * Double(ladder[queued[0].rendition]!)
                    if played >= 10 { bitsAfter10 += bits }
                    played += part
                    playedBits += bits
                    step -= part
                    queued[0].seconds -= part
                    if queued[0].seconds <= 1e-12 { queued.removeFirst() }
                }
            }
            t += dt
            if t >= nextSample {
                nextSample += 0.25
                let sample = AdaptiveRule.Sample(time: t, buffered: buffered, throughput: estimate, playing: !stalled)
                if let d = rule.observe(sample, current: current, bandwidths: ladder) {
                    outcome.decisions.append((t, d))
                    current = d.index
                }
            }
        }
        outcome.meanBitrate = played > 0 ? playedBits / played : 0
        outcome.meanBitrateAfter10 = played > 10 ? bitsAfter10 / (played - 10) : 0
        return outcome
    }

    func testStartIsWhatTheLastThroughputCarriesElseTheFirstListed() {
        let rule = AdaptiveRule()
        let table: [(throughput: Int?, allowed: Int?, expected: Int?, name: String)] = [
            (nil, nil, 0, "nothing known: the first listed"),
            (8_000_000, nil, 2, "8 Mbit/s carries 1080p (5.55 × 1/0.8 < 8)"),
            (4_000_000, nil, 1, "4 Mbit/s: 720p"),
            (500_000, nil, 0, "too slow for any: the lowest"),
            (8_000_000, 3_000_000, 1, "the cap wins"),
            (nil, 100_000, 0, "a cap below every rendition: the lowest"),
        ]
        for row in table {
            XCTAssertEqual(rule.start(bandwidths: ladder, knownThroughput: row.throughput, allowed: row.allowed)?.index, row.expected, row.name)
        }
        XCTAssertNil(rule.start(bandwidths: [], knownThroughput: nil))
        XCTAssertEqual(rule.start(bandwidths: [5_000_000, 700_000], knownThroughput: nil)?.index, 0, "first listed even when it is the highest")
    }

    func testSteadyBandwidthSettlesWithoutPingPong() {
        let outcome = simulate({ _ in 8_000_000 })
        XCTAssertEqual(outcome.reasons, ["2 auto-up"], "straight to what every measurement so far carries, then stays")
        XCTAssertEqual(outcome.stalls, 0)
        let slow = simulate({ _ in 3_500_000 })
        XCTAssertEqual(slow.reasons, ["1 auto-up"], "720p is what 3.5 Mbit/s carries")
        XCTAssertEqual(slow.stalls, 0)
    }

    /// Issue 27's fresh-start weak spot: from nothing remembered at 8 Mbit/s, the start (360p,
    /// the first listed) must not queue so much that the step up comes late: after 10 s, at
    /// least 90 % of what the link allows (the top rendition, 5.55 Mbit/s) plays.
    func testAFreshStartOnAFastLinkPlaysWhatTheLinkAllowsAfterTenSeconds() {
        let allowed = Double(ladder[2]!)
        let probed = simulate({ _ in 8_000_000 }, seconds: 45, probe: true)
        XCTAssertEqual(probed.reasons, ["2 auto-up"], "straight up, once")
        XCTAssertLessThan(probed.decisions.first?.time ?? 99, 3, "the first decision within seconds")
        XCTAssertGreaterThanOrEqual(probed.meanBitrateAfter10, 0.9 * allowed, "after 10 s: \(probed.meanBitrateAfter10)")
        XCTAssertEqual(probed.stalls, 0)
        // Without the probe hlsdemux2 queues ~22 s of 360p first: what the probe is for.
        let unprobed = simulate({ _ in 8_000_000 }, seconds: 45)
        XCTAssertLessThan(unprobed.meanBitrateAfter10, 0.9 * allowed, "the model shows the weak spot without the probe")
        // On a slow link the probe changes nothing that matters: no stall, no step up.
        let slow = simulate({ _ in 1_000_000 }, seconds: 45, probe: true)
        XCTAssertEqual(slow.reasons, [])
        XCTAssertEqual(slow.stalls, 0)
        // The first fragment over a new connection measures slower (its setup): during the probe
        // the median of the measurements counts, so one slow one does not choose 720p.
        var first = AdaptiveRule()
        first.beginProbe(from: 0, bandwidths: ladder)
        var decided: AdaptiveRule.Decision?
        for (i, rate) in [6_100_000, 6_100_000, 7_600_000, 7_600_000, 7_500_000, 7_500_000, 7_500_000, 7_500_000].enumerated() where decided == nil {
            decided = first.observe(.init(time: Double(i) * 0.25, buffered: 4, throughput: rate, playing: true), current: 0, bandwidths: ladder)
        }
        XCTAssertEqual(decided, AdaptiveRule.Decision(2, .autoUp), "6.1 × 0.8 < 5.55 < 7.5 × 0.8: the median carries 1080p")
        // The probe ends: after `probeDuration` without a decision, the demuxer's own target.
        var rule = AdaptiveRule()
        rule.beginProbe(from: 0, bandwidths: ladder)
        XCTAssertEqual(rule.bufferingTarget, 4)
        for i in 0...60 {
            _ = rule.observe(.init(time: Double(i) * 0.25, buffered: 3, throughput: 600_000, playing: true), current: 0, bandwidths: ladder)
        }
        XCTAssertEqual(rule.bufferingTarget, 10, "12 s of playing without a decision ends the probe: below the top, 10 s")
        XCTAssertNil(rule.observe(.init(time: 16, buffered: 12, throughput: 8_000_000, playing: true), current: 2, bandwidths: ladder))
        XCTAssertNil(rule.bufferingTarget, "at the top, the demuxer's own")
        // No probe from the top, or when a cap leaves nothing above.
        rule.beginProbe(from: 2, bandwidths: ladder)
        XCTAssertNil(rule.bufferingTarget)
        rule.beginProbe(from: 0, bandwidths: ladder, allowed: 1_000_000)
        XCTAssertNil(rule.bufferingTarget)
        rule.beginProbe(from: 0, bandwidths: ladder)
        rule.reset()
        XCTAssertNil(rule.bufferingTarget, "a manual choice, a new item: no probe")
    }

    func testAStepDownIsPredictedBeforeTheBufferEmpties() {
        // 8 Mbit/s for 30 s at 1080p, then 1 Mbit/s.
        let outcome = simulate({ $0 < 30 ? 8_000_000 : 1_000_000 }, start: 2)
        let down = outcome.decisions.first { $0.time > 30 }
        XCTAssertEqual(down?.decision.reason, .stallPredicted, outcome.reasons.description)
        XCTAssertEqual(down?.decision.index, 0, "1 Mbit/s carries only 360p")
        XCTAssertLessThan(down?.time ?? 99, 34, "within a few seconds of the drop")
        XCTAssertEqual(outcome.stalls, 0, "no stall")
        XCTAssertFalse(outcome.decisions.contains { $0.time > 30 && $0.decision.reason == .autoUp }, "no step up on 1 Mbit/s")
    }

    func testASpikeDoesNotMoveItUp() {
        // 1.5 Mbit/s with a 3 s spike to 20 Mbit/s: hlsdemux2's estimate stays at the spike's
        // while downloads pause, so one step up at most (a new measurement before the next),
        // and back down before the buffer is in danger.
        let outcome = simulate({ (20...23).contains($0) ? 20_000_000 : 1_500_000 })
        XCTAssertFalse(outcome.decisions.contains { $0.decision.index == 2 }, outcome.reasons.description)
        XCTAssertLessThanOrEqual(outcome.decisions.filter { $0.decision.reason == .autoUp }.count, 1, outcome.reasons.description)
        XCTAssertEqual(outcome.stalls, 0)
    }

    /// make bench's oscillating trace (8 Mbit/s, 1 from 10 s, 8 from 20 s, 1 from 30 s, 8 from
    /// 40 s; 45 s): the rule follows the link without a stall (down before the buffer runs dry on
    /// each slow phase, up again within seconds of each fast one, since below the top the demuxer
    /// queues at most `belowTopBuffer`), and never switches faster than the link changes. Before
    /// `belowTopBuffer` it played 65 % (fresh) and 75 % (remembered) of what the link carries at
    /// each moment: 30 s of 360p queued on the first slow phase played to the end.
    func testOscillatingBandwidthIsFollowedWithoutStallOrPingPong() {
        let schedule: (Double) -> Double = { t in [8e6, 1e6, 8e6, 1e6, 8e6][min(4, Int(t / 10))] }
        // What the link carries at each moment: 1080p for 25 s, 360p for 20 s.
        let link = (25 * Double(ladder[2]!) + 20 * Double(ladder[0]!)) / 45
        for (start, probe, share) in [(0, true, 0.85), (2, false, 0.9)] {
            let outcome = simulate(schedule, seconds: 45, start: start, probe: probe)
            XCTAssertEqual(outcome.stalls, 0, outcome.reasons.description)
            XCTAssertLessThanOrEqual(outcome.decisions.count, 8, "four changes of the link, two switches each at most: \(outcome.reasons)")
            for (a, b) in zip(outcome.decisions, outcome.decisions.dropFirst()) where (a.decision.reason == .autoUp) != (b.decision.reason == .autoUp) {
                XCTAssertGreaterThanOrEqual(b.time - a.time, 3, "up and down within 3 s: \(outcome.decisions.map { ($0.time, $0.decision.index) })")
            }
            XCTAssertGreaterThanOrEqual(outcome.meanBitrate, share * link, "start \(start): \(outcome.reasons)")
        }
        // Longer (120 s): still no stall.
        let long = simulate({ Int($0 / 10) % 2 == 0 ? 8_000_000 : 1_000_000 }, seconds: 120)
        XCTAssertEqual(long.stalls, 0, long.reasons.description)
    }

    func testPausedAndFullBuffersSayNothingOfTheNetwork() {
        var rule = AdaptiveRule()
        // Downloads paused at 30 s: the buffer drains at 1 s/s, which is no stall.
        for i in 0..<40 {
            let s = AdaptiveRule.Sample(time: Double(i) * 0.25, buffered: 30 - Double(i) * 0.25, throughput: 8_000_000, playing: true)
            XCTAssertNotEqual(rule.observe(s, current: 2, bandwidths: ladder)?.reason, .stallPredicted, "sample \(i)")
        }
        // Paused playback: no samples count.
        rule.reset()
        for i in 0..<40 {
            let s = AdaptiveRule.Sample(time: Double(i) * 0.25, buffered: 4, throughput: nil, playing: false)
            XCTAssertNil(rule.observe(s, current: 2, bandwidths: ladder), "sample \(i)")
        }
    }

    func testACapThatComesDownMovesTheRenditionUnderIt() {
        var rule = AdaptiveRule()
        let s = AdaptiveRule.Sample(time: 1, buffered: 12, throughput: 8_000_000, playing: true)
        XCTAssertEqual(rule.observe(s, current: 2, bandwidths: ladder, allowed: 1_000_000), AdaptiveRule.Decision(0, .autoDown))
    }

    /// A trace recorded from a real run (`REEL_ABR_TRACE`; Resources/traces/abr-step-down.csv):
    /// hls/abr through throttle-server.py at 8 Mbit/s then 1 Mbit/s from the 16th second, Reel
    /// at 1080p. Replayed through the rule, it must call the stall within a few seconds of the
    /// drop, with the buffer still well ahead, and choose 360p.
    func testARecordedStepDownTraceIsCalledBeforeTheBufferEmpties() throws {
        let url = TestMedia.packageRoot.appendingPathComponent("Resources/traces/abr-step-down.csv")
        let rows = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").dropFirst().compactMap { line -> AdaptiveRule.Sample? in
            let f = line.split(separator: ",").map(String.init)
            guard f.count >= 4, let t = Double(f[0]), let b = Double(f[1]), let r = Int(f[2]) else { return nil }
            return AdaptiveRule.Sample(time: t, buffered: b, throughput: r > 0 ? r : nil, playing: f[3] == "1")
        }
        XCTAssertGreaterThan(rows.count, 100)
        var rule = AdaptiveRule()
        var current = 2
        var decisions: [(Double, AdaptiveRule.Decision, Double)] = []
        for sample in rows {
            if let d = rule.observe(sample, current: current, bandwidths: ladder) {
                decisions.append((sample.time, d, sample.buffered))
                current = d.index
            }
        }
        let first = try XCTUnwrap(decisions.first, "no decision on the recorded trace")
        XCTAssertEqual(first.1, AdaptiveRule.Decision(0, .stallPredicted))
        // The recording starts with the first sample, about when playback began (0.5–2.5 s into
        // the server's schedule): the drop is between 13.5 and 16 s of it.
        XCTAssertGreaterThan(first.0, 13.5)
        XCTAssertLessThan(first.0, 21, "called within a few seconds of the drop")
        XCTAssertGreaterThan(first.2, 5, "with seconds of buffer still ahead")
        XCTAssertEqual(decisions.count, 1, "no further switch on 1 Mbit/s: \(decisions.map(\.1))")
    }
}
