import Foundation
@testable import ReelCore
import XCTest

/// `reel check`'s verdicts beyond "it played": QoE thresholds (`--max-startup`…, and a playlist
/// entry's own), the known problems file (known, fixed, sometimes, max=), and the QoE ratios
/// they read.
final class CheckVerdictTests: XCTestCase {
    private func qoe(startup: Double? = 0.5, rendered: Int = 90, dropped: Int = 10, stalls: Int = 2, stallSeconds: Double = 3,
                     playSeconds: Double = 27, bitrate: Int? = 1_500_000, top: Int? = 3_000_000) -> PlaybackQoE {
        var q = PlaybackQoE()
        q.startupSeconds = startup; q.renderedFrames = rendered; q.droppedFrames = dropped; q.stalls = stalls
        q.stallSeconds = stallSeconds; q.playSeconds = playSeconds; q.timeWeightedBitrate = bitrate; q.topBitrate = top
        return q
    }

    func testTheRatios() {
        let q = qoe()
        XCTAssertEqual(q.droppedPercent ?? -1, 10, accuracy: 1e-9)
        XCTAssertEqual(q.rebufferingPercent ?? -1, 10, accuracy: 1e-9, "3 s stalled of 30 s playing or stalled")
        XCTAssertEqual(q.bitratePercent ?? -1, 50, accuracy: 1e-9)
        XCTAssertNil(PlaybackQoE().droppedPercent, "no frames: no ratio, not 0 %")
        XCTAssertNil(PlaybackQoE().rebufferingPercent)
        XCTAssertNil(qoe(top: nil).bitratePercent)
        XCTAssertNil(qoe(top: 0).bitratePercent)
    }

    /// The time-weighted bitrate: each rendition's bandwidth by how long it played (not by how
    /// often it was chosen); paused time does not count.
    func testTheTimeWeightedBitrate() {
        var m = QoEMeter()
        m.loaded(at: 0)
        m.firstFrame(at: 0.5)
        m.rendition(0, bandwidth: 1_000_000, top: 4_000_000, at: 0.5)
        m.timeControl(.playing, at: 1)
        m.rendition(1, bandwidth: 4_000_000, top: 4_000_000, at: 4)  // 3 s at 1 Mbit/s
        m.timeControl(.paused, at: 5)  // 1 s at 4 Mbit/s
        m.timeControl(.playing, at: 100)  // paused for 95 s: nothing counted
        let q = m.snapshot(at: 101)  // 1 more second at 4 Mbit/s
        XCTAssertEqual(q.playSeconds, 5, accuracy: 1e-9)
        XCTAssertEqual(q.timeWeightedBitrate, 2_200_000, "(3×1 + 2×4) / 5 Mbit/s")
        XCTAssertEqual(q.topBitrate, 4_000_000)
        XCTAssertEqual(q.bitratePercent ?? -1, 55, accuracy: 1e-9)
        XCTAssertEqual(q.renditionSwitches, 1)
    }

    func testEachThresholdFailsAboveItsBoundOnly() {
        let q = qoe()
        let table: [(CheckThresholds, [String])] = [
            (CheckThresholds(), []),
            (CheckThresholds(maxStartup: 0.4), ["startup-too-slow"]), (CheckThresholds(maxStartup: 0.5), []),
            (CheckThresholds(maxDroppedPercent: 5), ["dropped-frames"]), (CheckThresholds(maxDroppedPercent: 10), []),
            (CheckThresholds(maxStalls: 1), ["too-many-stalls"]), (CheckThresholds(maxStalls: 2), []),
            (CheckThresholds(maxRebufferPercent: 9.9), ["rebuffering"]), (CheckThresholds(maxRebufferPercent: 10), []),
            (CheckThresholds(minBitratePercent: 60), ["bitrate-too-low"]), (CheckThresholds(minBitratePercent: 50), []),
            (CheckThresholds(maxStartup: 0.1, maxDroppedPercent: 1, maxStalls: 0, maxRebufferPercent: 1, minBitratePercent: 90),
             ["startup-too-slow", "dropped-frames", "too-many-stalls", "rebuffering", "bitrate-too-low"]),
        ]
        for (t, codes) in table {
            let problems = t.problems(q)
            XCTAssertEqual(problems.map(\.code), codes, "\(t)")
            XCTAssertTrue(problems.allSatisfy { $0.severity == .error && $0.figure != nil })
        }
        let slow = CheckThresholds(maxStartup: 0.4).problems(q)[0]
        XCTAssertEqual(slow.figure, 0.5)
        XCTAssertEqual(slow.message, "the first frame came 0.50 s after the load (at most 0.4 s)")
        XCTAssertEqual(CheckThresholds(maxStartup: 2).problems(qoe(startup: nil)).map(\.message), ["no first frame (at most 2 s)"])
        XCTAssertEqual(CheckThresholds(minBitratePercent: 60).problems(q)[0].message,
                       "a time-weighted bitrate of 1500 kbit/s, 50.0 % of the top rendition's 3000 kbit/s (at least 60 %)")
        XCTAssertEqual(CheckThresholds(minBitratePercent: 60).problems(qoe(bitrate: nil)), [], "no renditions: no bitrate verdict")
    }

    func testBoundsAsWrittenAndAPlaylistEntrysOwn() throws {
        let table: [(String, CheckThresholds.Bound, Double?)] = [
            ("2", .startup, 2), ("2.5s", .startup, 2.5), ("30%", .dropped, 30), ("5", .dropped, 5), ("101", .dropped, nil),
            ("-1", .stalls, nil), ("2.5", .stalls, nil), ("3", .stalls, 3), ("1e400", .rebuffer, nil), ("nan", .bitrate, nil), ("x", .startup, nil),
        ]
        for (text, bound, want) in table { XCTAssertEqual(CheckThresholds.value(text, for: bound), want, "\(bound.rawValue)=\(text)") }
        let base = CheckThresholds(maxStartup: 5, maxStalls: 0)
        let own = try base.overridden(by: ["max-startup": ["1"], "min-bitrate-ratio": ["80%"], "header": ["X: y"]])
        XCTAssertEqual(own, CheckThresholds(maxStartup: 1, maxStalls: 0, minBitratePercent: 80))
        XCTAssertThrowsError(try base.overridden(by: ["max-stalls": ["many"]])) { XCTAssertTrue("\($0)".contains("max-stalls=many")) }
    }

    // MARK: Known problems

    private func item(_ input: String, problems: [HLSProblem] = [], error: PlaybackError? = nil) -> CheckReport.Item {
        var i = CheckReport.Item(index: 0, input: input, uri: input, title: "t")
        i.problems = problems
        i.error = error
        return i
    }

    func testKnownFixedSometimesAndMax() throws {
        let known = try KnownProblems.parse("""
        # items  code  [max=] [sometimes] [link]
        *ad-break*      segment-not-keyframe   https://tracker.example/QA-12#note
        clip2s.mp4      dropped-frames max=40 sometimes https://tracker.example/QA-30
        clip2s.mp4      too-many-stalls        # fixed when it does not happen
        flaky.mp4       too-many-stalls sometimes
        gone.mp4        not-found  QA-7/ticket
        """)
        XCTAssertEqual(known.entries.map(\.line), [2, 3, 4, 5, 6])
        XCTAssertEqual(known.entries[0].link, "https://tracker.example/QA-12#note", "a link's #fragment is not a comment")

        // A known error does not fail the item; it is reported known with its link.
        let ad = known.apply(to: item("https://cdn/ad-break-3/master.m3u8", problems: [HLSProblem(line: 7, severity: .error, code: "segment-not-keyframe", message: "m")]))
        XCTAssertTrue(ad.ok)
        XCTAssertEqual(ad.problems.map(\.severity), [.known])
        XCTAssertEqual(ad.problems[0].link, "https://tracker.example/QA-12#note")
        XCTAssertEqual(ad.knownProblems, [.init(code: "segment-not-keyframe", state: .known, link: "https://tracker.example/QA-12#note", sometimes: false)])

        // max=: known while the figure is at most the bound; above it, an error that says so.
        let within = known.apply(to: item("/m/clip2s.mp4", problems: [HLSProblem(line: nil, severity: .error, code: "dropped-frames", message: "35 %", figure: 35)]))
        XCTAssertTrue(within.ok)
        XCTAssertEqual(within.knownProblems.map(\.state), [.known, .fixed], "dropped-frames known at 35; too-many-stalls did not happen: fixed")
        XCTAssertEqual(within.knownProblems.first?.figure, 35)
        let above = known.apply(to: item("/m/clip2s.mp4", problems: [HLSProblem(line: nil, severity: .error, code: "dropped-frames", message: "45 %", figure: 45)]))
        XCTAssertFalse(above.ok)
        XCTAssertEqual(above.problems[0].message, "45 % — known only up to 40")
        XCTAssertEqual(above.problems[0].severity, .error)

        // sometimes: neither known nor fixed when it did not happen.
        XCTAssertEqual(known.apply(to: item("/m/flaky.mp4")).knownProblems, [])
        // An item's error by its code.
        let gone = known.apply(to: item("https://h/gone.mp4", error: PlaybackError(kind: .notFound, message: "404", httpStatus: 404)))
        XCTAssertTrue(gone.ok)
        XCTAssertTrue(gone.errorIsKnown)
        // Another item, another error: untouched.
        let other = known.apply(to: item("/m/film.mp4", problems: [HLSProblem(line: nil, severity: .error, code: "dropped-frames", message: "m", figure: 1)]))
        XCTAssertFalse(other.ok)
        XCTAssertEqual(other.knownProblems, [])
        // Warnings are not what a known problem is about.
        let warned = known.apply(to: item("/m/clip2s.mp4", problems: [HLSProblem(line: nil, severity: .warning, code: "dropped-frames", message: "m", figure: 1)]))
        XCTAssertEqual(warned.problems.map(\.severity), [.warning])
    }

    func testKnownProblemsSyntaxErrorsNameTheirLine() {
        for (text, line, message) in [("a.mp4", 1, "ITEMS CODE"), ("\na.mp4 code max=lots", 2, "max= takes a number"), ("a.mp4 code often", 1, "is not max=BOUND, sometimes or a link")] {
            XCTAssertThrowsError(try KnownProblems.parse(text), text) { e in
                XCTAssertEqual((e as? CheckScenario.ParseError)?.line, line, text)
                XCTAssertTrue("\(e)".contains(message), "\(e)")
            }
        }
    }

    /// report.json carries the known problems' outcomes and a known problem's link, and reads them back.
    func testKnownOutcomesRoundTripThroughTheReport() throws {
        let known = try KnownProblems.parse("clip2s.mp4 dropped-frames https://t/1\nclip2s.mp4 too-many-stalls")
        let i = known.apply(to: item("/m/clip2s.mp4", problems: [HLSProblem(line: nil, severity: .error, code: "dropped-frames", message: "m", figure: 3)]))
        let report = CheckReport(items: [i], positions: [], generated: Date(timeIntervalSince1970: 0))
        let o = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(report.jsonText.utf8)) as? [String: Any])
        let summary = try XCTUnwrap(o["summary"] as? [String: Any])
        XCTAssertEqual(summary["known"] as? Int, 1)
        XCTAssertEqual(summary["fixed"] as? Int, 1)
        XCTAssertEqual(summary["failed"] as? Int, 0)
        let back = try CheckReport.decode(Data(report.jsonText.utf8))
        XCTAssertEqual(back.items[0].knownProblems, i.knownProblems)
        XCTAssertEqual(back.items[0].problems, i.problems)
    }
}
