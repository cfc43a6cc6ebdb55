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
    }
}
