import Foundation
import ReelCore
import XCTest

/// Issue 28: numbers in playlists and segments that trapped or exhausted Reel. Each case is the
/// reported input; each must parse (or audit) to problems, in bounded time and memory.
final class HostilePlaylistNumberTests: XCTestCase {
    private func media(_ text: String) throws -> (HLSMediaPlaylist, [HLSProblem]) {
        let result = try HLSPlaylist.parseReporting(text)
        guard case .media(let m) = result.playlist else { throw XCTSkip("not a media playlist") }
        return (m, result.problems)
    }

    /// Item 1: `#EXT-X-MEDIA-SEQUENCE:9223372036854775807` with one segment trapped at `sequence += 1`;
    /// numbers past 2^53 (and negative ones) are refused as invalid values.
    func testSequenceNumbersAtIntMaxAreRefusedNotCounted() throws {
        for tag in ["#EXT-X-MEDIA-SEQUENCE:9223372036854775807", "#EXT-X-MEDIA-SEQUENCE:9007199254740993", "#EXT-X-MEDIA-SEQUENCE:-5",
                    "#EXT-X-DISCONTINUITY-SEQUENCE:9223372036854775807"] {
            let (m, problems) = try media("#EXTM3U\n#EXT-X-TARGETDURATION:2\n\(tag)\n#EXTINF:2,\na.ts\n#EXTINF:2,\nb.ts\n")
            XCTAssertEqual(m.segments.count, 2, tag)
            XCTAssertTrue(problems.contains { $0.code == "invalid-value" && $0.line == 3 }, "\(tag): \(problems)")
        }
        let (m, _) = try media("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:9007199254740992\n#EXTINF:2,\na.ts\n#EXTINF:2,\nb.ts\n")
        XCTAssertEqual(m.segments.map(\.sequence), [9_007_199_254_740_992, 9_007_199_254_740_993], "2^53 itself is taken")
    }

    /// Item 1, the editor's second overflow: restart with `#EXT-X-DISCONTINUITY-SEQUENCE` at Int.max.
    func testTheLiveEditorSurvivesExtremeSequences() {
        let start = Date(timeIntervalSince1970: 1_795_550_400)
        var lines = ["#EXTM3U", "#EXT-X-TARGETDURATION:2", "#EXT-X-MEDIA-SEQUENCE:9223372036854775807",
                     "#EXT-X-DISCONTINUITY-SEQUENCE:9223372036854775807"]
        for n in 0..<6 {
            if n == 2 { lines.append("#EXT-X-DISCONTINUITY") }
            lines += ["#EXT-X-PROGRAM-DATE-TIME:" + ProgramDate.format(start.addingTimeInterval(2 * Double(n))), "#EXTINF:2,", "s\(n).ts"]
        }
        let text = lines.joined(separator: "\n") + "\n"
        for program in [LiveProgram(mode: .restart, start: start.addingTimeInterval(5)),
                        LiveProgram(mode: .catchup, start: start.addingTimeInterval(5), end: start.addingTimeInterval(9)), nil] {
            let out = LivePlaylistEditor(program: program, steersStart: true).edit(text, now: start.addingTimeInterval(12))
            XCTAssertFalse(out.text.isEmpty)
        }
    }

    /// Item 2: a 0.5 MB playlist whose 100 URI lines each hold 1,000 references to a
    /// 100,000-character variable expanded to ~10 GB. Substitution is now bounded per line and per
    /// playlist, and the lines past the bound are reported.
    func testADefineExpansionBombIsBounded() throws {
        let value = String(repeating: "x", count: 100_000)
        var lines = ["#EXTM3U", "#EXT-X-VERSION:8", "#EXT-X-TARGETDURATION:2", "#EXT-X-DEFINE:NAME=\"x\",VALUE=\"\(value)\""]
        let references = String(repeating: "{$x}", count: 1_000)
        for _ in 0..<100 { lines += ["#EXTINF:2,", references] }
        let text = lines.joined(separator: "\n") + "\n"
        XCTAssertLessThan(text.utf8.count, 600_000)
        let started = Date()
        let (m, problems) = try media(text)
        XCTAssertLessThan(Date().timeIntervalSince(started), 10, "bounded time")
        XCTAssertEqual(m.segments.count, 100)
        XCTAssertTrue(m.segments.allSatisfy { $0.uri.utf8.count <= 64 * 1024 }, "no line grew past the bound")
        XCTAssertEqual(problems.filter { $0.code == "substitution-too-long" }.count, 100)

        // Short values still substitute, up to the playlist's total.
        let small = "#EXTM3U\n#EXT-X-VERSION:8\n#EXT-X-TARGETDURATION:2\n#EXT-X-DEFINE:NAME=\"p\",VALUE=\"path\"\n#EXTINF:2,\n{$p}/a.ts\n"
        XCTAssertEqual(try media(small).0.segments.first?.uri, "path/a.ts")
        var many = ["#EXTM3U", "#EXT-X-VERSION:8", "#EXT-X-TARGETDURATION:2", "#EXT-X-DEFINE:NAME=\"v\",VALUE=\"\(String(repeating: "y", count: 60_000))\""]
        for _ in 0..<200 { many += ["#EXTINF:2,", "{$v}"] }
        let (bounded, more) = try media(many.joined(separator: "\n"))
        XCTAssertLessThanOrEqual(bounded.segments.reduce(0) { $0 + $1.uri.utf8.count }, 4 * 1024 * 1024 + 200 * 4)
        XCTAssertFalse(more.filter { $0.code == "substitution-too-long" }.isEmpty, "the playlist's total is bounded too")
    }

    /// Item 4: one `#EXTINF:10000000000000` in a live playlist reached MPRIS's microseconds and
    /// trapped; durations past a day (and absurd target and part durations) are refused where
    /// playlists are parsed.
    func testAbsurdDurationsAreRefusedWhereParsed() throws {
        let (m, problems) = try media("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\na.ts\n#EXTINF:10000000000000,\nb.ts\n#EXTINF:2,\nc.ts\n")
        XCTAssertEqual(m.segments.map(\.uri), ["a.ts", "c.ts"])
        XCTAssertTrue(problems.contains { $0.code == "invalid-value" && $0.line == 5 }, "\(problems)")
        let (t, tp) = try media("#EXTM3U\n#EXT-X-TARGETDURATION:1e300\n#EXT-X-PART-INF:PART-TARGET=1e300\n#EXTINF:2,\na.ts\n")
        XCTAssertNotEqual(t.targetDuration, 1e300)
        XCTAssertNil(t.partTargetDuration)
        XCTAssertTrue(tp.contains { $0.code == "invalid-value" && $0.line == 2 })
        XCTAssertEqual(try media("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:86400,\na.ts\n").0.segments.count, 1, "a day is still a segment")
    }

    /// Item 5: `reel check` trapped on a TS segment whose PES header_data_length (0xFF) runs past
    /// the packet, and on a variant with `#EXTINF:1e-300` (an infinite bitrate into Int).
    func testTheCheckersScansSurviveWhatTheyExistToCheck() {
        // PAT → PMT (PID 0x100) → H.264 on PID 0x101, whose PES header claims 255 more bytes.
        func packet(pid: Int, pusi: Bool, _ payload: [UInt8]) -> [UInt8] {
            var p: [UInt8] = [0x47, UInt8((pusi ? 0x40 : 0) | (pid >> 8)), UInt8(pid & 0xFF), 0x10] + payload
            p += [UInt8](repeating: 0xFF, count: 188 - p.count)
            return p
        }
        let pat = packet(pid: 0, pusi: true, [0, 0x00, 0xB0, 0x0D, 0, 1, 0xC1, 0, 0, 0, 1, 0xE1, 0x00, 0, 0, 0, 0])
        let pmt = packet(pid: 0x100, pusi: true, [0, 0x02, 0xB0, 0x12, 0, 1, 0xC1, 0, 0, 0xE1, 0x01, 0xF0, 0x00, 0x1B, 0xE1, 0x01, 0xF0, 0x00, 0, 0, 0, 0])
        let pes = packet(pid: 0x101, pusi: true, [0, 0, 1, 0xE0, 0, 0, 0x80, 0x80, 0xFF])
        XCTAssertNil(TransportStreamScan.startsWithKeyframe(Data(pat + pmt + pes + pes)))

        let tiny = HLSAudit.Segment(uri: "a.ts", duration: 1e-300, bytes: 1_000_000, startsWithKeyframe: true)
        let media = HLSMediaPlaylist()
        let variant = HLSVariant(uri: "v.m3u8", bandwidth: 1, averageBandwidth: 1)
        XCTAssertNil(HLSAudit.bitrates([tiny]), "a duration under a millisecond measures nothing")
        let huge = HLSAudit.Segment(uri: "b.ts", duration: 0.001, bytes: Int.max / 16, startsWithKeyframe: true)
        let problems = HLSAudit.audit(media, segments: [tiny, huge], variant: variant, name: "v")
        XCTAssertTrue(problems.contains { $0.code == "bandwidth-exceeded" }, "\(problems)")
    }
}
