import Foundation
import ReelTestSupport
import XCTest

/// Issue 60: one Reel per user session, on a private session bus of the test's own: a second
/// `reel FILE` hands its file to the open window and exits 0 (the window plays it, MPRIS says so);
/// `--enqueue` queues it without interrupting; a first Reel killed with SIGKILL leaves no stale
/// name (the next one owns it); scripted runs keep their own process.
final class SingleInstanceTests: XCTestCase {
    private var bus: BackgroundProcess!
    private var address = ""

    override func setUpWithError() throws {
        TestMedia.ensureGenerated()
        bus = try BackgroundProcess("/usr/bin/dbus-daemon", ["--session", "--nofork", "--print-address=1"])
        let deadline = Date().addingTimeInterval(10)
        while address.isEmpty, Date() < deadline {
            address = bus.stdout.split(separator: "\n").first.map(String.init) ?? ""
            usleep(50_000)
        }
        XCTAssertFalse(address.isEmpty, "a private session bus")
    }

    override func tearDown() {
        bus.process.terminate()
        _ = bus.finish(timeout: 5, dumpStacks: false)
    }

    private var environment: [String: String] { ["DBUS_SESSION_BUS_ADDRESS": address, "GTK_CSD": "0"] }

    private func call(_ arguments: [String]) -> String {
        ProcessRunner.run("/usr/bin/gdbus", ["call", "--session"] + arguments, timeout: 10, environment: environment).stdout
    }

    /// The MPRIS url of what the open Reel plays, and whether it can go next.
    private func playing() -> (url: String, canGoNext: Bool)? {
        let names = call(["--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus", "--method", "org.freedesktop.DBus.ListNames"])
        guard let range = names.range(of: #"org\.mpris\.MediaPlayer2\.reel\.instance[0-9]+"#, options: .regularExpression) else { return nil }
        let name = String(names[range])
        func get(_ property: String) -> String {
            call(["--dest", name, "--object-path", "/org/mpris/MediaPlayer2", "--method", "org.freedesktop.DBus.Properties.Get",
                  "org.mpris.MediaPlayer2.Player", property])
        }
        let metadata = get("Metadata")
        guard let url = metadata.range(of: #"file://[^']+"#, options: .regularExpression).map({ String(metadata[$0]) }) else { return nil }
        return (url, get("CanGoNext").contains("true"))
    }

    private func eventually(_ what: String, _ condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(15)
        while !condition() && Date() < deadline { usleep(100_000) }
        XCTAssertTrue(condition(), what)
    }

    func testASecondReelHandsItsFileToTheOpenOneAndAKilledOneLeavesNoName() throws {
        let common = ["--no-resume", "--autoload=no", "--audio-sink", "fakesink sync=true"]
        let first = try BackgroundProcess(ProcessRunner.reelExecutable, common + [TestMedia.path("color10s.mp4")], environment: environment)
        defer { if first.process.isRunning { first.process.terminate(); _ = first.finish(timeout: 5, dumpStacks: false) } }
        eventually("the first plays A") { playing()?.url.hasSuffix("color10s.mp4") == true }

        let second = ProcessRunner.run(ProcessRunner.reelExecutable, common + [TestMedia.path("demo-smpte.mp4")], timeout: 15, environment: environment)
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertTrue(second.stderr.contains("handed to the Reel already open"), second.stderr)
        eventually("the open window plays B") { playing()?.url.hasSuffix("demo-smpte.mp4") == true }

        let third = ProcessRunner.run(ProcessRunner.reelExecutable, common + ["--enqueue", TestMedia.path("demo-ball.mp4")], timeout: 15, environment: environment)
        XCTAssertEqual(third.status, 0, third.stderr)
        eventually("queued after it, B still playing") { playing().map { $0.url.hasSuffix("demo-smpte.mp4") && $0.canGoNext } == true }

        // A scripted run keeps its own process (it plays, headless, and ends by itself).
        let scripted = ProcessRunner.run(ProcessRunner.reelExecutable, ["--headless", "--exit-at-end", "--audio-sink", "fakesink", "--video-sink", "fakesink",
                                                                       TestMedia.path("clip2s.mp4")], timeout: 30, environment: environment)
        XCTAssertEqual(scripted.status, 0)
        XCTAssertFalse(scripted.stderr.contains("handed"), scripted.stderr)

        kill(first.process.processIdentifier, SIGKILL)
        _ = first.finish(timeout: 5, dumpStacks: false)
        let again = try BackgroundProcess(ProcessRunner.reelExecutable, common + [TestMedia.path("demo-colors.mp4")], environment: environment)
        defer { again.process.terminate(); _ = again.finish(timeout: 5, dumpStacks: false) }
        eventually("a new Reel after a SIGKILL owns the name and plays") { playing()?.url.hasSuffix("demo-colors.mp4") == true }
        XCTAssertFalse(again.stderr.contains("handed"), again.stderr)
    }
}
