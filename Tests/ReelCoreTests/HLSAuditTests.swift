import ReelCore
import XCTest

/// mediastreamvalidator's checks on measured facts, as a table.
final class HLSAuditTests: XCTestCase {
    private func media(live: Bool, pdt: Bool) -> HLSMediaPlaylist {
        var m = HLSMediaPlaylist(targetDuration: 2)
        m.hasEndList = !live
        m.segments = (0..<3).map { HLSSegment(uri: "s\($0).ts", duration: 2, sequence: $0, programDateTime: pdt ? "2026-11-24T10:00:0\($0 * 2)Z" : nil) }
        return m
    }

    private func segments(_ bytes: [Int?], keyframes: [Bool?] = [true, true, true]) -> [HLSAudit.Segment] {
        zip(bytes, keyframes).enumerated().map { HLSAudit.Segment(uri: "s\($0.offset).ts", duration: 2, bytes: $0.element.0, startsWithKeyframe: $0.element.1) }
    }

    func testBitratesAreMeasuredPeakAndAverage() throws {
        let b = try XCTUnwrap(HLSAudit.bitrates(segments([250_000, 500_000, 250_000])))
        XCTAssertEqual(b.peak, 2_000_000)
        XCTAssertEqual(b.average, 1_333_333.33, accuracy: 1)
        XCTAssertNil(HLSAudit.bitrates(segments([nil, nil, nil])))
    }

    func testTheTable() {
        let v = { (bw: Int?, avg: Int?) in HLSVariant(uri: "v.m3u8", bandwidth: bw, averageBandwidth: avg) }
        let rows: [(String, HLSMediaPlaylist, [HLSAudit.Segment], HLSVariant?, [String])] = [
            ("honest VOD", media(live: false, pdt: false), segments([250_000, 250_000, 250_000]), v(1_000_000, 1_000_000), []),
            ("within 10 %", media(live: false, pdt: false), segments([270_000, 250_000, 250_000]), v(1_000_000, nil), []),
            ("peak over BANDWIDTH", media(live: false, pdt: false), segments([300_000, 250_000, 250_000]), v(1_000_000, nil), ["bandwidth-exceeded"]),
            ("average off", media(live: false, pdt: false), segments([125_000, 125_000, 125_000]), v(1_000_000, 1_000_000), ["average-bandwidth-mismatch"]),
            ("no BANDWIDTH", media(live: false, pdt: false), segments([1, 1, 1]), v(nil, nil), ["missing-attribute"]),
            ("mid-GOP", media(live: false, pdt: false), segments([1, 1, 1], keyframes: [true, false, nil]), nil, ["segment-not-keyframe"]),
            ("unavailable", media(live: false, pdt: false), segments([1, nil, 1]), nil, ["segment-unavailable"]),
            ("live without PDT", media(live: true, pdt: false), segments([1, 1, 1]), nil, ["program-date-time-missing"]),
            ("live with PDT", media(live: true, pdt: true), segments([1, 1, 1]), nil, []),
        ]
        for (name, m, s, variant, expected) in rows {
            XCTAssertEqual(HLSAudit.audit(m, segments: s, variant: variant, name: "v").map(\.code), expected, name)
        }
    }
}
