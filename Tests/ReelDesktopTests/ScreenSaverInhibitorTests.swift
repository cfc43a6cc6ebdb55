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
            XCTAssertTrue(GLibMainLoop.run(until: { inhibitor.isSettled }, timeout: 5))
            XCTAssertEqual(inhibitor.cookie, 42)
            inhibitor.update(playing: true)  // idempotent: one inhibition at a time
            XCTAssertTrue(GLibMainLoop.run(until: { inhibitor.isSettled }, timeout: 5))
            XCTAssertEqual(service.calls, ["Inhibit|Reel|Playing a video|42"])
            inhibitor.update(playing: false)
            XCTAssertFalse(inhibitor.isInhibiting)
            inhibitor.update(playing: false)
            inhibitor.update(playing: true)
            XCTAssertTrue(GLibMainLoop.run(until: { inhibitor.isSettled }, timeout: 5))
            XCTAssertEqual(inhibitor.cookie, 43)
            XCTAssertTrue(GLibMainLoop.run(until: { service.calls.count == 3 }, timeout: 3))
            XCTAssertEqual(service.calls, ["Inhibit|Reel|Playing a video|42", "UnInhibit|42", "Inhibit|Reel|Playing a video|43"])
            XCTAssertEqual(logged, [], "no complaint when the service answers")
        }
    }

    /// A slow service never holds the main loop (the window, the video's controls): `update`
    /// returns at once and the reply is handled when it comes. A wish that changed meanwhile
    /// (paused before the cookie came) is carried out after it: the cookie is handed back.
    func testASlowServiceNeverHoldsTheMainLoop() throws {
        let service: FakeScreenSaver
        do { service = try FakeScreenSaver(replyDelay: 0.5) } catch { throw XCTSkip("\(error)") }
        defer { service.stop() }
        onMain {
            final class Seen { var mainLoopRanBeforeTheCookie: Bool? }
            let seen = Seen()
            let inhibitor = ScreenSaverInhibitor(appName: "Reel")
            inhibitor.update(playing: true)
            MainQueue.shared.after(0.05) { seen.mainLoopRanBeforeTheCookie = inhibitor.cookie == nil }
            XCTAssertTrue(GLibMainLoop.run(until: { inhibitor.isSettled && seen.mainLoopRanBeforeTheCookie != nil }, timeout: 5))
            XCTAssertEqual(seen.mainLoopRanBeforeTheCookie, true, "the main loop waited for the service")
            XCTAssertEqual(inhibitor.cookie, 42)

            inhibitor.update(playing: false)
            inhibitor.update(playing: true)   // Inhibit 43 on its way…
            inhibitor.update(playing: false)  // …and paused before its reply
            XCTAssertTrue(GLibMainLoop.run(until: { inhibitor.isSettled && service.calls.count == 4 }, timeout: 5), "\(service.calls)")
            XCTAssertFalse(inhibitor.isInhibiting)
            XCTAssertEqual(service.calls, ["Inhibit|Reel|Playing a video|42", "UnInhibit|42", "Inhibit|Reel|Playing a video|43", "UnInhibit|43"])
        }
    }

    func testWithoutAServiceItSaysSoOnceAndCarriesOn() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else { throw XCTSkip("no session bus") }
        onMain {
            let inhibitor = ScreenSaverInhibitor(appName: "Reel")
            var logged: [String] = []
            inhibitor.log = { logged.append($0) }
            inhibitor.update(playing: true)
            XCTAssertTrue(GLibMainLoop.run(until: { inhibitor.isSettled }, timeout: 5))
            inhibitor.update(playing: false)
            inhibitor.update(playing: true)
            XCTAssertTrue(GLibMainLoop.run(until: { inhibitor.isSettled }, timeout: 5))
            XCTAssertFalse(inhibitor.isInhibiting)
            XCTAssertNotNil(inhibitor.unavailableReason)
            XCTAssertEqual(logged.count, 1, "said once: \(logged)")
            XCTAssertTrue(logged.first?.contains("screensaver") ?? false)
        }
    }
}
