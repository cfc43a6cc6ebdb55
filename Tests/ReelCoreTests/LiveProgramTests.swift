import Foundation
import ReelCore
import XCTest

/// `LiveProgram` (the live options, checked as a whole) and `ProgramDate` (ISO 8601 with a zone).
final class LiveProgramTests: XCTestCase {
    func testDatesNeedAZone() {
        let table: [(String, Double?)] = [
            ("2026-11-24T20:00:00Z", 1_795_550_400),
            ("2026-11-24T20:00:00.250Z", 1_795_550_400.25),
            ("2026-11-24T21:00:00+01:00", 1_795_550_400),
            ("2026-11-24T15:30:00-0430", 1_795_550_400),
            ("2026-11-24T22:00:00+02", 1_795_550_400),
            ("1970-01-01T00:00:00Z", 0),
            ("2000-02-29T00:00:00Z", 951_782_400),
            ("2026-11-24T20:00:00", nil),        // no zone: a different instant on every machine
            ("2026-11-24 20:00", nil),
            ("2026-13-01T00:00:00Z", nil),
            ("2026-11-24T20:00:00.Z", nil),
            ("2026-11-24T20:00:00Zjunk", nil),
            ("", nil),
        ]
        for (text, expected) in table {
            let parsed = ProgramDate.parse(text)?.timeIntervalSince1970
            if let expected {
                XCTAssertEqual(try XCTUnwrap(parsed, text), expected, accuracy: 0.000_5, text)
            } else {
                XCTAssertNil(parsed, text)
            }
        }
    }

    func testFormatRoundTrips() {
        for t in [0.0, 1_795_550_400.25, 951_782_400, 4_102_444_799.999] {
            let text = ProgramDate.format(Date(timeIntervalSince1970: t))
            XCTAssertTrue(text.hasSuffix("Z"), text)
            XCTAssertEqual(ProgramDate.parse(text)?.timeIntervalSince1970 ?? -1, t, accuracy: 0.000_5, text)
        }
        XCTAssertEqual(ProgramDate.format(Date(timeIntervalSince1970: 1_795_550_400.25)), "2026-11-24T20:00:00.250Z")
    }

    func testOptionsAreCheckedAsAWhole() throws {
        let start = "2026-11-24T20:00:00Z", end = "2026-11-24T22:00:00Z"
        let good: [([String: [String]], LiveMode)] = [
            ([:].merging(["live-mode": ["live"]]) { $1 }, .live),
            (["live-mode": ["RESTART"], "program-start": [start]], .restart),
            (["live-mode": ["restart"], "program-start": [start], "start-offset": ["4"]], .restart),
            (["live-mode": ["catchup"], "program-start": [start], "program-end": [end]], .catchup),
            (["program-end": [end]], .live),
        ]
        for (options, mode) in good {
            XCTAssertEqual(try LiveProgram.parse(options)?.mode, mode, "\(options)")
        }
        XCTAssertNil(try LiveProgram.parse([:]), "no live option, no programme")
        XCTAssertEqual(try LiveProgram.parse(["start-offset": ["4.5"]])?.startOffset, 4.5)

        let bad: [([String: [String]], String)] = [
            (["live-mode": ["restart"]], "program-start"),
            (["live-mode": ["catchup"], "program-start": [start]], "program-end"),
            (["live-mode": ["catchup"], "program-end": [end]], "program-start"),
            (["live-mode": ["catchup"], "program-start": [end], "program-end": [start]], "program-end"),
            (["live-mode": ["catchup"], "program-start": [start], "program-end": [start]], "program-end"),
            (["live-mode": ["dvr"]], "live-mode"),
            (["program-start": ["20:00"]], "program-start"),
            (["start-offset": ["-1"]], "start-offset"),
            (["start-offset": ["nan"]], "start-offset"),
        ]
        for (options, option) in bad {
            XCTAssertThrowsError(try LiveProgram.parse(options, prefix: "--"), "\(options)") { error in
                XCTAssertEqual((error as? LiveProgram.OptionError)?.option, "--" + option, "\(options)")
            }
        }
    }

    func testAnEntryOverridesTheCommandLine() throws {
        let base = try XCTUnwrap(try LiveProgram.parse(["live-mode": ["restart"], "program-start": ["2026-11-24T20:00:00Z"]]))
        let entry = try XCTUnwrap(try LiveProgram.parse(["program-start": ["2026-11-24T21:00:00Z"]], base: base))
        XCTAssertEqual(entry.mode, .restart)
        XCTAssertEqual(entry.isoStart, "2026-11-24T21:00:00.000Z")
    }

    func testARestartWhoseEndHasPassedPlaysAsCatchup() {
        let program = LiveProgram(mode: .restart, start: Date(timeIntervalSince1970: 100), end: Date(timeIntervalSince1970: 200))
        XCTAssertEqual(program.effectiveMode(at: Date(timeIntervalSince1970: 150)), .restart)
        XCTAssertEqual(program.effectiveMode(at: Date(timeIntervalSince1970: 200)), .catchup, "seed 000's event rule")
        XCTAssertEqual(LiveProgram(mode: .live, end: Date(timeIntervalSince1970: 200)).effectiveMode(at: Date(timeIntervalSince1970: 300)), .live)
        // Decided when the item starts, the mode holds while it plays.
        let started = program.decided(at: Date(timeIntervalSince1970: 150))
        XCTAssertEqual(started.effectiveMode(at: Date(timeIntervalSince1970: 300)), .restart)
        XCTAssertEqual(program.decided(at: Date(timeIntervalSince1970: 250)).effectiveMode(at: Date(timeIntervalSince1970: 300)), .catchup)
    }

    /// `--timeshift-url`: the template is checked when read, and the URL asked of the origin is
    /// the item's own with the programme filled in, only for restart and catchup.
    func testTheTimeShiftedURLAskedOfTheOrigin() throws {
        let start = "2026-11-24T20:00:00Z", end = "2026-11-24T22:00:00Z"
        func program(_ mode: String, _ template: String, end: String? = "2026-11-24T22:00:00Z") throws -> LiveProgram {
            var options = ["live-mode": [mode], "program-start": [start], "timeshift-url": [template]]
            if let end { options["program-end"] = [end] }
            return try XCTUnwrap(try LiveProgram.parse(options))
        }
        let item = URL(string: "https://origin.example/out/v1/live/index.m3u8?aws.manifestfilter=video_height:1-720")!
        let later = Date(timeIntervalSince1970: 1_795_600_000)  // after the end: catchup
        let table: [(mode: String, template: String, end: String?, expected: String?)] = [
            ("catchup", "&start={start}&end={end}", end,
             "https://origin.example/out/v1/live/index.m3u8?aws.manifestfilter=video_height:1-720&start=2026-11-24T20:00:00Z&end=2026-11-24T22:00:00Z"),
            ("catchup", "?start={start_epoch}&end={end_epoch}", end, "https://origin.example/out/v1/live/index.m3u8?start=1795550400&end=1795557600"),
            ("catchup", "https://shift.example/p/{start_epoch}/{end_epoch}/index.m3u8", end, "https://shift.example/p/1795550400/1795557600/index.m3u8"),
            ("restart", "?start={start}&end={end}", nil, "https://origin.example/out/v1/live/index.m3u8?start=2026-11-24T20:00:00Z&end="),
            ("live", "?start={start}", nil, nil),
        ]
        for row in table {
            let p = try program(row.mode, row.template, end: row.end)
            XCTAssertTrue(p.isAtOrigin)
            XCTAssertEqual(p.timeshiftedURL(for: item, now: later)?.absoluteString, row.expected, "\(row.mode) \(row.template)")
        }
        // An item without a query gets one for a template that begins with &.
        let plain = try program("catchup", "&start={start}")
        XCTAssertEqual(plain.timeshiftedURL(for: URL(string: "http://h/live.mpd")!, now: later)?.absoluteString, "http://h/live.mpd?start=2026-11-24T20:00:00Z")
        // Without a template nothing changes.
        XCTAssertNil(try XCTUnwrap(try LiveProgram.parse(["live-mode": ["catchup"], "program-start": [start], "program-end": [end]])).timeshiftedURL(for: item, now: later))
        // A template with no start, or not a URL, is refused naming the option.
        for bad in ["?end={end}", "ht tp://x/{start}"] {
            XCTAssertThrowsError(try LiveProgram.parse(["live-mode": ["restart"], "program-start": [start], "timeshift-url": [bad]], prefix: "--")) { error in
                XCTAssertEqual((error as? LiveProgram.OptionError)?.option, "--timeshift-url", bad)
            }
        }
    }

    /// At the origin the editor cuts nothing: a restart starts at the start of what the origin
    /// served (here without dates, which would otherwise mean "played live"), and a catchup the
    /// origin closed passes as it is.
    func testTheEditorCutsNothingAtTheOrigin() throws {
        var restart = LiveProgram(mode: .restart, start: Date(timeIntervalSince1970: 1_795_550_400), timeshift: "?start={start}")
        let event = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-PLAYLIST-TYPE:EVENT\n" + (0..<10).map { "#EXTINF:2.0,\ns\($0).ts\n" }.joined()
        var output = LivePlaylistEditor(program: restart, steersStart: false).edit(event, now: Date(timeIntervalSince1970: 1_795_550_430))
        XCTAssertNil(output.problem)
        XCTAssertEqual(output.start?.rule, "program-start")
        XCTAssertEqual(output.start?.seconds, 0)
        XCTAssertEqual(output.text, event)
        restart.startOffset = 4
        output = LivePlaylistEditor(program: restart, steersStart: false).edit(event, now: Date(timeIntervalSince1970: 1_795_550_430))
        XCTAssertEqual(output.start?.rule, "start-offset")
        XCTAssertEqual(output.start?.seconds, 4)
        restart.timeshift = nil
        output = LivePlaylistEditor(program: restart, steersStart: false).edit(event, now: Date(timeIntervalSince1970: 1_795_550_430))
        XCTAssertNotNil(output.problem, "without the origin, a stream with no dates cannot be restarted")

        let catchup = LiveProgram(mode: .catchup, start: Date(timeIntervalSince1970: 1_795_550_400), end: Date(timeIntervalSince1970: 1_795_550_420),
                                  timeshift: "&start={start}&end={end}")
        let vod = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-PLAYLIST-TYPE:VOD\n" + (0..<10).map { "#EXTINF:2.0,\ns\($0).ts\n" }.joined() + "#EXT-X-ENDLIST\n"
        output = LivePlaylistEditor(program: catchup, steersStart: true).edit(vod, now: Date(timeIntervalSince1970: 1_795_560_000))
        XCTAssertNil(output.problem)
        XCTAssertEqual(output.text, vod)
        XCTAssertEqual(output.snapshot?.hasEndList, true)
    }
}
