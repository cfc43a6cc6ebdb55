import Foundation
import ReelCore
import ReelEngine
import ReelTestSupport
import XCTest

/// The preroll watchdog (`PlayerConfiguration.localPrerollTimeout`) on a machine too slow for it:
/// here a 10 ms bound, which every file overruns. A good file is probed, found sound and given
/// more time; a damaged one fails with the probe's error, not "did not start".
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
}
