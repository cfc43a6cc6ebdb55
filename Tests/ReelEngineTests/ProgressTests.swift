import ReelCore
import ReelEngine
import ReelTestSupport
import XCTest
import ReelGLib

final class ProgressTests: XCTestCase {
    func testProgressIsMonotonicAndFollowsTheClock() throws {
        try onMain {
            let interval = 0.1
            let h = try EngineHarness(progressInterval: interval)
            defer { h.shutdown() }
            h.player.load(TestMedia.path("color10s.mp4"))
            h.player.play()
            h.wait("2.5 s of playback") { h.player.position >= 2.5 }
            h.player.pause()
            let paused = h.progress().count
            GLibMainLoop.spin(for: 0.5)
            XCTAssertEqual(h.progress().count, paused, "no progress while time stands still")

            let fine = h.progress(.fine)
            XCTAssertGreaterThan(fine.count, 15)
            XCTAssertEqual(fine.map(\.position), fine.map(\.position).sorted(), "monotonic")
            // Media time follows the wall clock: after the first report, position − elapsed stays
            // within one tick (plus scheduling jitter) of where it started.
            let origin = fine[0]
            for sample in fine.dropFirst() {
                let drift = (sample.position - origin.position) - sample.time.timeIntervalSince(origin.time)
                XCTAssertLessThan(abs(drift), interval + 0.05, "drift \(drift) at \(sample.position)")
            }
            // 1 s ticks: one per whole second crossed, at positions just past it.
            let seconds = h.progress(.second).map(\.position)
            XCTAssertEqual(seconds.map { Int($0) }, [1, 2])
            for p in seconds { XCTAssertLessThan(p - p.rounded(.down), interval + 0.05) }
        }
    }

    func testTenSecondTickOnLongerMedia() throws {
        try onMain {
            let h = try EngineHarness(sync: true)
            defer { h.shutdown() }
            h.loadReady("color10s.mp4", at: 8.5)
            h.player.play()
            h.wait("end", timeout: 5) { h.ended == 1 }
            XCTAssertEqual(h.progress(.tenSeconds).count, 1)
            XCTAssertEqual(h.progress(.second).map { Int($0.position) }, [9, 10])
        }
    }
}
