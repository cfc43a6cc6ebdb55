import Foundation
import ReelCore
@_spi(Testing) import ReelEngine
import ReelTestSupport
import XCTest
import ReelGLib

/// The preroll watchdog (`PlayerConfiguration.localPrerollTimeout`) on a machine too slow for it:
/// here a 10 ms bound, which every file overruns. A good file is probed, found sound and given
/// more time; a damaged one fails with the probe's error, not "did not start". And a pipeline
/// that never prerolls a good file is replaced by a fresh one.
final class PrerollWatchdogTests: XCTestCase {
    @MainActor
    private static func player() throws -> (Player, () -> [PlayerEvent]) {
        var configuration = PlayerConfiguration(audioSink: "fakesink sync=true", videoSink: "fakesink sync=true")
        configuration.localPrerollTimeout = 0.01
        let player = try Player(configuration: configuration)
        var events: [PlayerEvent] = []
        player.addObserver { events.append($0) }
        return (player, { events })
    }

    func testAGoodFileThatIsSlowToStartIsNotCalledDamaged() throws {
        try onMain {
            let (player, events) = try Self.player()
            defer { player.shutdown() }
            player.load(TestMedia.path("color10s.mp4"))
            player.play()
            XCTAssertTrue(GLibMainLoop.run(until: { player.position >= 0.5 }, timeout: 15), "\(events())")
            XCTAssertFalse(events().contains { if case .error = $0 { true } else { false } }, "\(events())")
            XCTAssertEqual(player.status, .readyToPlay)
        }
    }

    func testADamagedFileStillFailsAsCorrupt() throws {
        try onMain {
            let (player, events) = try Self.player()
            defer { player.shutdown() }
            player.load(TestMedia.path("corrupt.mp4"))
            player.play()
            XCTAssertTrue(GLibMainLoop.run(until: { if case .failed = player.status { true } else { false } }, timeout: 15), "\(events())")
            let errors = events().compactMap { if case .error(let e) = $0 { e } else { nil } }
            XCTAssertEqual(errors.map(\.kind), [.corrupt])
        }
    }

    /// GStreamer 1.22's playbin3 now and then never prerolls a good local file on a loaded
    /// machine (no error, no preroll: the item used to sit "loading" for the watchdog's six
    /// rounds and then fail as "did not start"). Here the second pipeline's video sink holds its
    /// first frame for a minute: once the watchdog's probe has opened the file, the item starts
    /// again on a fresh pipeline and plays, with no error and no second item change.
    func testAGoodFileOnAPipelineThatNeverPrerollsStartsAgainOnAFreshOne() throws {
        try onMain {
            var configuration = PlayerConfiguration(audioSink: "fakesink sync=true", videoSink: "fakesink sync=true")
            configuration.localPrerollTimeout = 1
            let player = try Player(configuration: configuration)
            defer { player.shutdown() }
            var built = 0  // pipelines after the first: the load of color10s builds the first of them
            player.videoSinkForNextPipeline = {
                built += 1
                return built == 1 ? "identity sleep-time=60000000 ! fakesink sync=true" : nil
            }
            var events: [PlayerEvent] = []
            player.addObserver { events.append($0) }
            player.load(TestMedia.path("clip2s.mp4"))  // pipeline 0
            XCTAssertTrue(GLibMainLoop.run(until: { player.status == .readyToPlay }, timeout: 15), "\(events)")
            events.removeAll()
            let started = Date()
            player.load(TestMedia.path("color10s.mp4"))  // pipeline 1: stuck before its first frame
            player.play()
            XCTAssertTrue(GLibMainLoop.run(until: { player.position >= 0.5 }, timeout: 20), "\(events)")
            XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 1, "it started on the stuck pipeline first")
            XCTAssertFalse(events.contains { if case .error = $0 { true } else { false } }, "\(events)")
            XCTAssertEqual(events.filter { if case .itemChanged = $0 { true } else { false } }.count, 1, "\(events)")
            XCTAssertEqual(events.filter { $0 == .status(.readyToPlay) }.count, 1, "\(events)")
            XCTAssertEqual(player.timeControlStatus, .playing)
        }
    }
}
