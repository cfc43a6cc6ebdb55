import Foundation
import ReelCore
import ReelTestSupport
import XCTest

/// The property model (issue 57): what each kind takes, what `add` and `multiply` keep to, and
/// mpv's events told from Reel's.
final class PropertyKindTests: XCTestCase {
    func testEachKindTakesWhatMpvTakesAndRefusesTheWrongTypeWithMpvsWords() throws {
        try onMain {
            var told: [PropertyValue] = []
            let table = PropertyTable()
            table.declare("test", [
                .flag("f", "", get: { _ in true }) { told.append(.flag($0)) },
                .choice("c", ["fit", "fill"], "", synonyms: ["yes": "fill"], get: { _ in "fit" }) { told.append(.word($0)) },
                .number("n", NumberSpec(range: -10...10, whole: true), "", get: { _ in 3 }) { told.append(.number($0)) },
                .optionalNumber("o", NumberSpec(range: 0...5, none: "no"), "", get: { _ in .string("no") }) { told.append(.number($0)) },
                .number("s", NumberSpec(range: 0.5...2, clampsOnSet: true), "", get: { _ in 1 }) { told.append(.number($0)) },
                .number("r", .rate, "", get: { _ in 1 }) { told.append(.number($0)) },
            ])
            let accepted: [(String, JSONValue, PropertyValue)] = [
                ("f", .bool(false), .flag(false)), ("f", .string("yes"), .flag(true)), ("f", .string("No"), .flag(false)),
                ("c", .string("FILL"), .word("fill")), ("c", .bool(true), .word("fill")),
                ("n", .int(-10), .number(-10)), ("n", .string("7"), .number(7)),
                ("o", .string("no"), .number(nil)), ("o", .null, .number(nil)), ("o", .double(2.5), .number(2.5)),
                ("s", .double(9), .number(2)), ("r", .double(-64), .number(-64)), ("r", .double(1.0 / 64), .number(1.0 / 64)),
            ]
            for (name, value, expected) in accepted {
                told.removeAll()
                XCTAssertNoThrow(try table.set(name, value), "\(name) \(value)")
                XCTAssertEqual(told, [expected], "\(name) \(value)")
            }
            let refused: [(String, JSONValue, IPCError.Code)] = [
                ("f", .string("maybe"), .propertyFormat), ("f", .int(1), .propertyFormat), ("c", .string("stretch"), .invalidArgument),
                ("c", .array([]), .propertyFormat), ("n", .string("ten"), .propertyFormat), ("n", .double(2.5), .invalidArgument),
                ("n", .int(11), .invalidArgument), ("n", .double(.infinity), .invalidArgument), ("o", .string("off!"), .propertyFormat),
                ("r", .int(0), .invalidArgument), ("r", .double(1e-300), .invalidArgument), ("r", .int(65), .invalidArgument),
                ("nothing", .int(1), .unknownProperty),
            ]
            for (name, value, code) in refused {
                XCTAssertThrowsError(try table.set(name, value), "\(name) \(value)") { XCTAssertEqual(($0 as? IPCError)?.code, code, "\(name) \(value)") }
            }
            XCTAssertEqual(IPCError.Code.propertyFormat.rawValue, "unsupported format for accessing property", "mpv's own words")
        }
    }

    func testAddAndMultiplyAreHeldToTheKindAndRoundedAsMpvPrints() throws {
        try onMain {
            var value = 0.0
            let table = PropertyTable()
            var bounded = Property.number("v", NumberSpec(range: 0...1000, step: 2), "", get: { _ in value }) { value = $0 }
            bounded.bounds = { _ in 0...130 }
            table.declare("test", [
                bounded,
                .number("w", NumberSpec(range: 0...359, whole: true, wraps: 360, step: 90), "", get: { _ in value }) { value = $0 },
                .number("d", NumberSpec(range: -600...600), "", get: { _ in value }) { value = $0 },
            ])
            let rows: [(String, String, Double?, Double, Double)] = [
                ("add", "v", nil, 10, 12), ("add", "v", 1e19, 10, 130), ("add", "v", -1e300, 10, 0), ("multiply", "v", 0.5, 100, 50),
                ("add", "w", nil, 270, 0), ("add", "w", -90, 0, 270), ("add", "w", 1e19, 90, 280),  // 10^19 ≡ 280 (mod 360), in floating point before any Int
                ("add", "d", 0.1, 0.2, 0.3), ("multiply", "d", -1e300, 2, -600),
            ]
            for (verb, name, arg, start, expected) in rows {
                value = start
                if verb == "add" { try table.add(name, arg) } else { try table.multiply(name, arg ?? 1) }
                XCTAssertEqual(value, expected, accuracy: 1e-9, "\(verb) \(name) \(arg.map { "\($0)" } ?? "") from \(start)")
            }
            XCTAssertThrowsError(try table.multiply("v", .infinity))
        }
    }
}

final class MPVEventsTests: XCTestCase {
    private func names(_ events: [(PlayerEvent, Int?)]) -> [String] {
        var t = MPVEvents()
        return events.flatMap { t.translate($0.0, item: $0.1) }.map { e in
            guard case .object(let pairs) = e else { return "?" }
            let name = pairs.first?.1.ipcString ?? "?"
            let reason = pairs.first { $0.0 == "reason" }?.1.ipcString
            let id = pairs.first { $0.0 == "playlist_entry_id" }?.1.ipcNumber.map { Int($0) }
            return [name, reason, id.map(String.init)].compactMap { $0 }.joined(separator: " ")
        }
    }

    func testALoadASeekAGaplessSwitchAFailureAndTheEnd() {
        let error = PlaybackError(kind: .notFound, message: "No such file: /m/b.mp4?token=SECRET")
        let rows: [(PlayerEvent, Int?)] = [
            (.itemChanged(index: 0, uri: "file:///m/a.mp4", title: nil), 0), (.mediaInfo(MediaInfo()), 0), (.status(.readyToPlay), 0),
            (.progress(position: 0.1, duration: 2, tick: .fine, live: nil), 0),
            (.timeControl(.waitingToPlayAtSpecifiedRate(.seeking)), 0), (.seeked(position: 1), 0),
            (.seeked(position: 1.5), 0),
            (.itemChanged(index: 1, uri: "file:///m/b.mp4", title: nil), 1), (.progress(position: 0, duration: 2, tick: .fine, live: nil), 1),
            (.itemChanged(index: 2, uri: "file:///m/c.mp4", title: nil), 2), (.status(.failed(error)), 2),
            (.itemChanged(index: 3, uri: "file:///m/d.mp4", title: nil), 3), (.status(.readyToPlay), 3), (.playedToEnd, 3),
            (.finished(played: 3, failed: 1, reason: .ended), nil),
        ]
        XCTAssertEqual(names(rows), [
            "start-file 1", "file-loaded", "playback-restart",
            "seek", "playback-restart", "seek", "playback-restart",
            "end-file stop 1", "start-file 2", "file-loaded", "playback-restart",
            "end-file stop 2", "start-file 3", "end-file error 3",
            "start-file 4", "file-loaded", "playback-restart", "end-file eof 4", "idle",
        ])
        var t = MPVEvents()
        _ = t.translate(.itemChanged(index: 0, uri: "file:///m/b.mp4", title: nil), item: 0)
        let failed = t.translate(.status(.failed(error)), item: 0).first?.serialized() ?? ""
        XCTAssertFalse(failed.contains("SECRET"), failed)
        XCTAssertTrue(failed.contains("file_error"), failed)
    }
}
