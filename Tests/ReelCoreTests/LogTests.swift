import Foundation
import ReelCore
import Synchronization
import XCTest

/// Reel's one log: `REEL_DEBUG` by area and level, off by default, every line redacted.
final class LogTests: XCTestCase {
    private final class Lines: Sendable {
        let all = Mutex<[String]>([])
    }

    override func tearDown() { Log.redirect(nil) }

    func testREELDEBUGByAreaAndLevel() {
        XCTAssertEqual(Log.levels(from: nil), [:])
        XCTAssertEqual(Log.levels(from: "quality:5,gateway"), [.quality: .trace, .gateway: .debug])
        XCTAssertEqual(Log.levels(from: "*:2").count, Log.Area.allCases.count)
        XCTAssertEqual(Log.levels(from: "*:2")[.engine], .warning)
        XCTAssertEqual(Log.levels(from: "engine:9, Queue:0, nonsense:3, :4"), [.engine: .trace, .queue: .error])
        XCTAssertEqual(Log.levels(from: "engine:loud"), [:])
    }

    func testASecondSinkTakesWhatItAsksForRedactedWhateverREELDEBUGSays() {
        let lines = Lines(), sunk = Lines()
        Log.redirect({ line in lines.all.withLock { $0.append(line) } }, levels: [:])
        let previous = Log.attach(Log.Sink(isOn: { area, level in area == .gateway && level <= .debug },
                                           write: { area, level, text in sunk.all.withLock { $0.append("\(area.rawValue) \(level.rawValue) \(text)") } }))
        defer { Log.attach(previous) }
        XCTAssertTrue(Log.isOn(.gateway, .debug))
        XCTAssertFalse(Log.isOn(.gateway, .trace))
        XCTAssertFalse(Log.isOn(.engine, .error))
        Log.debug(.gateway, .debug, "fetch https://cdn.example/a.m3u8?token=s3cret")
        Log.debug(.gateway, .trace, "not asked for")
        Log.debug(.engine, .info, "not asked for either")
        XCTAssertEqual(sunk.all.withLock { $0 }.count, 1)
        let line = sunk.all.withLock { $0 }.first ?? ""
        XCTAssertTrue(line.hasPrefix("gateway 4 fetch https://cdn.example/a.m3u8"), line)
        XCTAssertFalse(line.contains("s3cret"), line)
        XCTAssertEqual(lines.all.withLock { $0 }, [], "REEL_DEBUG is off: stderr gets nothing")
    }

    func testDecisionsAreOffByDefaultAndRedacted() {
        let lines = Lines()
        Log.redirect({ line in lines.all.withLock { $0.append(line) } }, levels: [:])
        Log.debug(.quality, .info, "not written")
        Log.say("a warning")
        XCTAssertEqual(lines.all.withLock { $0 }, ["reel: a warning\n"])

        Log.redirect({ line in lines.all.withLock { $0.append(line) } }, levels: [.quality: .debug])
        Log.debug(.quality, .debug, "pinned 1")
        Log.debug(.quality, .trace, "too fine")
        Log.debug(.gateway, .error, "another area")
        Redactor.register(secret: "s3cr3t-token-4711")
        Log.debug(.quality, .info, "fetched https://cdn.example/a.m3u8?token=s3cr3t-token-4711")
        Log.say("done", prefix: "reel check")
        let written = lines.all.withLock { $0 }
        XCTAssertEqual(written.count, 4, "\(written)")
        XCTAssertEqual(written[1], "reel[quality]: pinned 1\n")
        XCTAssertFalse(written[2].contains("s3cr3t-token-4711"), written[2])
        XCTAssertEqual(written[3], "reel check: done\n")
    }
}
