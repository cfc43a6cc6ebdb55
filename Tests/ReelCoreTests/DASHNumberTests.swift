import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
@testable import ReelCore
import ReelTestSupport
import XCTest

/// Issue 46, items 2, 3 and 6: every MPD number is read within bounds (`DASHNumber`), and timelines
/// are walked by arithmetic (`DASHTimeline`), never by stepping through what is skipped.
final class DASHNumberTests: XCTestCase {
    func testEachRuleByTable() {
        let rows: [(String, DASHNumber.Rule, Double?)] = [
            ("0", .ticks, 0), ("9007199254740992", .ticks, 9_007_199_254_740_992), ("9007199254740994", .ticks, nil),
            ("-1", .ticks, nil), ("1.5", .ticks, nil), ("1e300", .ticks, nil), ("nan", .ticks, nil), ("inf", .ticks, nil),
            ("0", .positiveTicks, nil), ("1e-300", .positiveTicks, nil), ("2", .positiveTicks, 2),
            ("-1", .repeatCount, -1), ("-2", .repeatCount, nil), ("2147483646", .repeatCount, 2_147_483_646), ("2147483648", .repeatCount, nil),
            ("9223372036854775807", .whole, nil), ("-9223372036854775808", .whole, nil), ("12", .whole, 12),
            ("90000", .timescale, 90_000), ("0", .timescale, nil), ("1e300", .timescale, nil), ("0.5", .timescale, nil),
            ("PT2S", .seconds, 2), ("-PT100S", .seconds, nil), ("P99999999999999999999Y", .seconds, nil), ("P1D", .seconds, 86_400),
        ]
        for (text, rule, expected) in rows {
            XCTAssertEqual(DASHNumber.value(text, rule), expected, "\(text) as \(rule)")
        }
    }

    private func root(_ text: String) throws -> XMLElement {
        try XCTUnwrap(try MPDDocument.parse(text).rootElement())
    }

    func testViolationsNameTheAttribute() throws {
        for crafted in [("<S t=\"0\" d=\"1e-300\" r=\"-1\"/>", "S@d"), ("<S d=\"2\" r=\"9223372036854775807\"/>", "S@r"),
                        ("<S t=\"1e300\" d=\"1\"/>", "S@t"), ("<S d=\"1\"/>", "S@d is 0.001 s")] {
            let ts = crafted.1.hasSuffix("0.001 s") ? "1000000" : "1"
            let text = "<MPD><Period><AdaptationSet><SegmentTemplate timescale=\"\(ts)\" media=\"$Number$.m4s\"><SegmentTimeline>\(crafted.0)</SegmentTimeline></SegmentTemplate></AdaptationSet></Period></MPD>"
            let violation = try XCTUnwrap(DASHNumber.violation(in: try root(text)), crafted.0)
            XCTAssertTrue(violation.contains(crafted.1.components(separatedBy: " ")[0]), "\(crafted.0): \(violation)")
        }
        let pad = "<MPD><Period><SegmentTemplate media=\"$Bandwidth%0999999999999d$.m4s\" duration=\"2\"/></Period></MPD>"
        XCTAssertTrue(DASHNumber.violation(in: try root(pad))?.contains("digits") ?? false)
        let depth = "<MPD type=\"dynamic\" timeShiftBufferDepth=\"-PT100S\"><Period/></MPD>"
        XCTAssertTrue(DASHNumber.violation(in: try root(depth))?.contains("timeShiftBufferDepth") ?? false)
        let good = "<MPD mediaPresentationDuration=\"PT10S\"><Period><SegmentTemplate timescale=\"90000\" startNumber=\"1\" media=\"$Number%05d$.m4s\"><SegmentTimeline><S t=\"0\" d=\"180000\" r=\"4\"/></SegmentTimeline></SegmentTemplate></Period></MPD>"
        XCTAssertNil(DASHNumber.violation(in: try root(good)))
        XCTAssertThrowsError(try DASHManifestRewriter.check(pad)) {
            guard case .outOfBounds? = $0 as? DASHManifestRewriter.Failure else { return XCTFail("\($0)") }
        }
    }

    /// The walk by arithmetic equals stepping through every segment, on random small timelines
    /// and windows (the stepping is the old code's meaning).
    func testTheWalkMatchesSteppingThroughEverySegment() throws {
        var rng = SplitMix(seed: 46)
        for round in 0..<400 {
            var entries: [String] = []
            var naive: [(Int, Double, Double)] = []
            var t = 0.0  // a first S without @t starts at 0
            let startNumber = Int(rng.next() % 4)
            var number = startNumber
            let count = 1 + Int(rng.next() % 4)
            for i in 0..<count {
                let d = Double(1 + rng.next() % 3)
                let r = Int(rng.next() % 5) - (i == count - 1 ? 1 : 0)  // the last may be -1
                let explicitT = rng.next() % 2 == 0
                if explicitT { t += Double(rng.next() % 5) }
                entries.append("<S\(explicitT ? " t=\"\(Int(t))\"" : "") d=\"\(Int(d))\" r=\"\(r)\"/>")
                let n = r >= 0 ? r + 1 : 6  // -1 on the last: up to openEnd
                let end = t + 6 * d
                for k in 0..<n {
                    let start = t + Double(k) * d
                    if r < 0, start >= end { break }
                    naive.append((number, start, d))
                    number += 1
                }
                t += Double(n) * d
            }
            let lastStart = (naive.last?.1 ?? 0)
            let openEnd: Double? = entries.last!.contains("r=\"-1\"") ? naive.filter { _ in true }.last.map { $0.1 + $0.2 } : nil
            let a = Double(rng.next() % 20) - 2, b = a + Double(rng.next() % 20)
            let keepLatest = rng.next() % 2 == 0
            let limit = 1 + Int(rng.next() % 8)
            let window = DASHTimeline.Window(endsAfter: a, startsBefore: b, limit: limit, keepLatest: keepLatest)
            let xml = try root("<SegmentTimeline>\(entries.joined())</SegmentTimeline>")
            let walked = DASHTimeline.walk(xml, startNumber: startNumber, openEnd: openEnd, window: window).segments.map { ($0.number, $0.t, $0.d) }
            var expected = naive.filter { $0.1 + $0.2 > a && $0.1 < b }
            if expected.count > limit { expected = keepLatest ? Array(expected.suffix(limit)) : Array(expected.prefix(limit)) }
            XCTAssertEqual(walked.map(\.0), expected.map(\.0), "round \(round): \(entries) a=\(a) b=\(b) last=\(lastStart)")
            XCTAssertEqual(walked.map(\.1), expected.map(\.1), "round \(round): \(entries)")
        }
    }

    /// One-second segments since 1970 with `r="-1"` (1.76·10⁹ of them by now): the live window is
    /// the newest 43,200, ending now, found without stepping through the rest (which looped on a
    /// cooperative thread until the item timed out).
    func testATimelineFrom1970IsTheNewestDayOfSegments() throws {
        let text = """
        <MPD type="dynamic" availabilityStartTime="1970-01-01T00:00:00Z"><Period start="PT0S"><AdaptationSet contentType="video">
        <Representation id="v" bandwidth="1"><SegmentTemplate timescale="1" media="$Time$.m4s"><SegmentTimeline><S t="0" d="1" r="-1"/></SegmentTimeline></SegmentTemplate></Representation>
        </AdaptationSet></Period></MPD>
        """
        let now = Date(timeIntervalSince1970: 1_795_000_000.5)
        let window = try XCTUnwrap(DASHLiveWindow.snapshot(text, now: now))
        XCTAssertEqual(window.durations.count, DASHLiveWindow.maximumSegments)
        XCTAssertEqual(window.firstSequence + window.durations.count - 1, 1 + 1_795_000_000 - 1, "the newest segment ended by now")
        XCTAssertEqual(window.dates.last??.timeIntervalSince1970 ?? 0, 1_794_999_999, accuracy: 0.001)
    }

    func testTemplateWidthsAreCapped() {
        XCTAssertEqual(DASHSegments.expand("$Number%0999999999999d$", id: "v", bandwidth: 1, number: 7, time: nil).count, DASHNumber.maximumWidth)
        XCTAssertEqual(DASHSegments.expand("$Time%05d$", id: "v", bandwidth: 1, number: nil, time: 1e300), "9007199254740992")
        XCTAssertEqual(DASHSegments.expand("$Number%05d$", id: "v", bandwidth: 1, number: 7, time: nil), "00007")
    }
}
