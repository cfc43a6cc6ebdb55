import Foundation
import ReelTestSupport
import ReelDesktop
import XCTest
import ReelGLib

/// The screensaver is held off while playing and let go when paused or stopped: Reel against a
/// stand-in org.freedesktop.ScreenSaver on the test run's private session bus.
final class ScreenSaverInhibitorTests: XCTestCase {
    func testInhibitWhilePlayingReleaseOtherwise() throws {
        let service: FakeScreenSaver
        do { service = try FakeScreenSaver() } catch { throw XCTSkip("\(error)") }
        defer { service.stop() }
        onMain {
            let inhibitor = ScreenSaverInhibitor(appName: "Reel")
            var logged: [String] = []
            inhibitor.log = { logged.append($0) }
            inhibitor.update(playing: true)
            XCTAssertEqual(inhibitor.cookie, 42)
            inhibitor.update(playing: true)  // idempotent: one inhibition at a time
            XCTAssertEqual(service.calls, ["Inhibit|Reel|Playing a video|42"])
            inhibitor.update(playing: false)
            XCTAssertFalse(inhibitor.isInhibiting)
            inhibitor.update(playing: false)
            inhibitor.update(playing: true)
            XCTAssertEqual(inhibitor.cookie, 43)
            XCTAssertTrue(GLibMainLoop.run(until: { service.calls.count == 3 }, timeout: 3))
            XCTAssertEqual(service.calls, ["Inhibit|Reel|Playing a video|42", "UnInhibit|42", "Inhibit|Reel|Playing a video|43"])
            XCTAssertEqual(logged, [], "no complaint when the service answers")
        }
    }

    func testWithoutAServiceItSaysSoOnceAndCarriesOn() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else { throw XCTSkip("no session bus") }
        onMain {
            let inhibitor = ScreenSaverInhibitor(appName: "Reel")
            var logged: [String] = []
            inhibitor.log = { logged.append($0) }
            inhibitor.update(playing: true)
            inhibitor.update(playing: false)
            inhibitor.update(playing: true)
            XCTAssertFalse(inhibitor.isInhibiting)
            XCTAssertEqual(logged.count, 1, "said once: \(logged)")
            XCTAssertTrue(logged.first?.contains("screensaver") ?? false)
        }
    }
}
