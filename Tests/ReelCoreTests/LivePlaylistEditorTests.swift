import Foundation
import ReelCore
import XCTest

/// `LivePlaylistEditor`: restart and catchup cuts, start steering, and the snapshot it takes.
final class LivePlaylistEditorTests: XCTestCase {
    /// Segment n starts at t0 + 2n; `count` segments from `first`, a key from segment 2 on and a
    /// discontinuity at segment 3.
    private let t0 = 1_795_550_400.0

    private func playlist(first: Int = 0, count: Int = 10, endList: Bool = false, extraHeader: [String] = [], dates: Bool = true,
                          datesOnFirstOnly: Bool = false) -> String {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:6", "#EXT-X-TARGETDURATION:2", "#EXT-X-MEDIA-SEQUENCE:\(first)",
                     "#EXT-X-DISCONTINUITY-SEQUENCE:5"] + extraHeader
        for n in first..<(first + count) {
            if n == 2 { lines.append("#EXT-X-KEY:METHOD=AES-128,URI=\"key.bin\"") }
            if n == 3 { lines.append("#EXT-X-DISCONTINUITY") }
            if dates && (!datesOnFirstOnly || n == first) {
                lines.append("#EXT-X-PROGRAM-DATE-TIME:" + ProgramDate.format(Date(timeIntervalSince1970: t0 + 2 * Double(n))))
            }
            lines += ["#EXTINF:2.000,", "seg\(n).ts"]
        }
        if endList { lines.append("#EXT-X-ENDLIST") }
        return lines.joined(separator: "\n") + "\n"
    }

    private func media(_ text: String) throws -> HLSMediaPlaylist {
        guard case .media(let m) = try HLSPlaylist.parse(text) else { throw XCTSkip("not a media playlist") }
        return m
    }

    private func date(_ seconds: Double) -> Date { Date(timeIntervalSince1970: t0 + seconds) }

    func testLiveWithoutAProgrammePassesUnchangedOnceStarted() throws {
        let text = playlist()
        let out = LivePlaylistEditor(program: nil, steersStart: false).edit(text, now: date(20))
        XCTAssertEqual(out.text, text)
        let snapshot = try XCTUnwrap(out.snapshot)
        XCTAssertEqual(snapshot.duration, 20)
        XCTAssertEqual(snapshot.firstSequence, 0)
        XCTAssertEqual(snapshot.dates.first??.timeIntervalSince1970, t0)
        XCTAssertEqual(out.start?.rule, "target-duration")
        XCTAssertEqual(out.start?.seconds ?? 0, 14, accuracy: 0.001, "three target durations from the edge")
    }

    func testSteeringHoldsBackTheNewestSegmentsUntilTheStart() throws {
        // A hold-back of 12 s: the start is at 8 s (segment 4); hlsdemux2 starts four from the
        // end, so the engine sees segments 0…7 only.
        let out = LivePlaylistEditor(program: nil, steersStart: true).edit(playlist(extraHeader: ["#EXT-X-SERVER-CONTROL:HOLD-BACK=12.0"]), now: date(20))
        let m = try media(out.text)
        XCTAssertEqual(m.segments.map(\.uri), (0...7).map { "seg\($0).ts" })
        XCTAssertEqual(out.start?.rule, "hold-back")
        XCTAssertEqual(out.snapshot?.duration, 20, "the snapshot is the stream's window, not what was held back")
        // Three target durations is nearer than four segments: nothing to hold back.
        XCTAssertEqual(try media(LivePlaylistEditor(program: nil, steersStart: true).edit(playlist(), now: date(20)).text).segments.count, 10)
    }

    func testTheSafeDistanceRules() {
        let table: [([String], String, Double)] = [
            ([], "target-duration", 6),
            (["#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,HOLD-BACK=9.5"], "hold-back", 9.5),
            (["#EXT-X-START:TIME-OFFSET=-4.0"], "start", 4),
            (["#EXT-X-START:TIME-OFFSET=5", "#EXT-X-SERVER-CONTROL:HOLD-BACK=9.5"], "start", 15),
            (["#EXT-X-SERVER-CONTROL:HOLD-BACK=90"], "hold-back", 20),  // never more than the window
        ]
        for (header, rule, distance) in table {
            let safe = LivePlaylistEditor(program: nil, steersStart: false).edit(playlist(extraHeader: header), now: date(20)).snapshot?.safeDistance
            XCTAssertEqual(safe?.rule, rule, "\(header)")
            XCTAssertEqual(safe?.seconds ?? -1, distance, accuracy: 0.001, "\(header)")
        }
    }

    func testRestartLeavesOutWhatEndsBeforeTheProgrammeAndCarriesKeyAndSequence() throws {
        let program = LiveProgram(mode: .restart, start: date(9))  // inside segment 4
        let out = LivePlaylistEditor(program: program, steersStart: false).edit(playlist(), now: date(20))
        let m = try media(out.text)
        XCTAssertEqual(m.mediaSequence, 4)
        XCTAssertEqual(m.discontinuitySequence, 6, "the discontinuity of segment 3 left with it")
        XCTAssertEqual(m.segments.first?.uri, "seg4.ts")
        XCTAssertEqual(m.segments.first?.key?.uri, "key.bin", "the key in force is written before the first segment kept")
        XCTAssertEqual(m.segments.count, 6)
        XCTAssertNil(out.problem)
        XCTAssertEqual(out.snapshot?.firstSequence, 4)
        XCTAssertEqual(out.snapshot?.duration, 12)
        XCTAssertEqual(out.start?.rule, "program-start")
        XCTAssertEqual(out.start?.seconds ?? -1, 1, accuracy: 0.001, "1 s into segment 4")
        XCTAssertEqual(out.text.components(separatedBy: "#EXT-X-MEDIA-SEQUENCE").count, 2, "one media sequence tag")
    }

    func testRestartSteersToTheProgrammeStartAndTheOffset() throws {
        let program = LiveProgram(mode: .restart, start: date(4), startOffset: 4)  // segment 2 + 4 s = segment 4
        let out = LivePlaylistEditor(program: program, steersStart: true).edit(playlist(), now: date(20))
        let m = try media(out.text)
        XCTAssertEqual(m.segments.map(\.uri), ["seg2.ts", "seg3.ts", "seg4.ts", "seg5.ts", "seg6.ts", "seg7.ts"],
                       "hlsdemux2 starts four from the end: segment 4")
        XCTAssertEqual(out.start?.rule, "start-offset")
        XCTAssertEqual(out.start?.seconds ?? -1, 4, accuracy: 0.001)
    }

    func testRestartCarriesADateToAPlaylistThatHasOneOnlyOnItsFirstSegment() throws {
        let program = LiveProgram(mode: .restart, start: date(10))
        let out = LivePlaylistEditor(program: program, steersStart: false).edit(playlist(datesOnFirstOnly: true), now: date(20))
        let m = try media(out.text)
        XCTAssertEqual(m.segments.first?.uri, "seg5.ts")
        XCTAssertEqual(m.segments.first?.programDateTime.flatMap(ProgramDate.parse)?.timeIntervalSince1970, t0 + 10)
    }

    func testCatchupIsTheProgrammeClosedOnceItsEndIsThere() throws {
        let program = LiveProgram(mode: .catchup, start: date(4), end: date(11))  // segments 2…5
        let out = LivePlaylistEditor(program: program, steersStart: true).edit(playlist(), now: date(20))
        let m = try media(out.text)
        XCTAssertEqual(m.segments.map(\.uri), ["seg2.ts", "seg3.ts", "seg4.ts", "seg5.ts"])
        XCTAssertTrue(m.hasEndList)
        XCTAssertEqual(out.snapshot?.hasEndList, true)
        XCTAssertNil(out.start, "VOD: nothing to steer")

        // The end not in the playlist yet: what there is, still open.
        let running = LiveProgram(mode: .catchup, start: date(4), end: date(40))
        let open = try media(LivePlaylistEditor(program: running, steersStart: false).edit(playlist(), now: date(20)).text)
        XCTAssertEqual(open.segments.first?.uri, "seg2.ts")
        XCTAssertEqual(open.segments.count, 8)
        XCTAssertFalse(open.hasEndList)
    }

    func testProgrammesThatAreNotInTheStreamPassUnchangedWithAProblem() {
        let table: [(LiveProgram, String)] = [
            (LiveProgram(mode: .restart, start: date(100)), "has not started"),
            (LiveProgram(mode: .catchup, start: date(-100), end: date(-50)), "not in the stream's window"),
            (LiveProgram(mode: .restart, start: date(-30)), "no longer in the stream's window"),
        ]
        for (program, words) in table {
            let out = LivePlaylistEditor(program: program, steersStart: false).edit(playlist(), now: date(20))
            XCTAssertTrue(out.problem?.contains(words) == true, "\(program): \(out.problem ?? "nil")")
            XCTAssertEqual(out.snapshot?.durations.count, 10)
        }
        let noDates = LivePlaylistEditor(program: LiveProgram(mode: .restart, start: date(4)), steersStart: false).edit(playlist(dates: false), now: date(20))
        XCTAssertTrue(noDates.problem?.contains("PROGRAM-DATE-TIME") == true)
        XCTAssertEqual(noDates.snapshot?.durations.count, 10)
    }

    func testMastersAndVODPassUnchanged() {
        let master = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000\nlow.m3u8\n"
        let out = LivePlaylistEditor(program: LiveProgram(mode: .restart, start: date(0)), steersStart: true).edit(master, now: date(20))
        XCTAssertEqual(out.text, master)
        XCTAssertNil(out.snapshot)
        let vod = playlist(endList: true)
        let v = LivePlaylistEditor(program: nil, steersStart: true).edit(vod, now: date(20))
        XCTAssertEqual(v.text, vod)
        XCTAssertEqual(v.snapshot?.hasEndList, true)
        let garbage = "not a playlist"
        XCTAssertEqual(LivePlaylistEditor(program: nil, steersStart: true).edit(garbage).text, garbage)
    }
}
