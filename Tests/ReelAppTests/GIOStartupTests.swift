import Foundation
import Synchronization
import ReelTestSupport
import XCTest

/// Issue 46, item 1: a network item opened in a window never deadlocks GIO at start-up, whatever
/// GSettings backend the desktop gives (Flatpak's `keyfile` hung 3 runs in 6: the main thread
/// building GTK's first widgets and souphttpsrc's thread loading the proxy module each waited
/// for the other inside GIO). 20 runs per backend, in a window and headless; a hang is a run that
/// has not exited 30 s after a 3 s play.
final class GIOStartupTests: XCTestCase {
    private func runs(window: Bool) throws {
        let server = try HTTPFixtureServer()
        defer { server.shutdown() }
        server.serveDirectory(TestMedia.url("hls/vod"), at: "/vod")
        let master = server.url("/vod/master.m3u8").absoluteString
        var backends = ["keyfile", "memory"]
        if FileManager.default.fileExists(atPath: "/usr/lib/x86_64-linux-gnu/gio/modules/libdconfsettings.so") { backends.append("dconf") }
        let home = TestMedia.temporaryDirectory("reel-gio")
        defer { try? FileManager.default.removeItem(at: home) }
        for backend in backends {
            // Four at a time: the same threads racing, in less time.
            let failures = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 4) { lane in
                for run in stride(from: lane, to: 20, by: 4) {
                    let r = ProcessRunner.run(ProcessRunner.reelExecutable,
                                              (window ? [] : ["--headless"]) + ["--exit-at-end", "--start-time", "3", "--audio-sink", "fakesink",
                                                                                 "--no-resume", master],
                                              timeout: 30, environment: ["GSETTINGS_BACKEND": backend, "XDG_CONFIG_HOME": home.path + "/\(backend)-\(run)"])
                    if r.timedOut || r.status != 0 {
                        // A crash: the crashed thread's frames (the runtime's backtrace starts
                        // with them; its tail is only registers and images).
                        let crashed = r.stderr.range(of: "crashed:").map { String(r.stderr[$0.lowerBound...].prefix(4000)) }
                        failures.withLock { $0.append("\(backend) run \(run): \(r.timedOut ? "hung" : "status \(r.status)"): \(crashed ?? String(r.stderr.suffix(300))))") }
                    }
                }
            }
            XCTAssertEqual(failures.withLock { $0 }, [], "GSETTINGS_BACKEND=\(backend), \(window ? "window" : "headless")")
        }
    }

    func testANetworkItemInAWindowStartsWithEveryGSettingsBackend() throws { try runs(window: true) }

    func testANetworkItemHeadlessStartsWithEveryGSettingsBackend() throws { try runs(window: false) }
}
