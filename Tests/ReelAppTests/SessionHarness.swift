import Foundation
import ReelCore
import ReelEngine
import ReelTestSupport
import ReelUI
import XCTest
@testable import ReelApp

/// A real windowed session (GTK window + playbin3 drawing into it) at a pinned size and look.
@MainActor
final class SessionHarness {
    nonisolated static let goldens = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Goldens")
    let session: WindowSession
    let tmp = TestMedia.temporaryDirectory("reel-app-ui")
    var window: PlayerWindow { session.window }
    var player: Player { session.player }

    init(_ inputs: [String], width: Int = 640, height: Int = 400, play: Bool = true, networkRule: NetworkRule = NetworkRule(),
         quality: QualityChoice = .auto, resumeFile: String? = nil, recentFile: String? = nil, inputConf: String? = nil, autoload: Bool = false,
         review: ReviewOptions? = nil) throws {
        guard UIRuntime.start() else { throw XCTSkip("no X display: run under xvfb-run (make test does)") }
        UIRuntime.pinAppearance()
        let options = PlaybackOptions(
            inputs: inputs, headless: false, exitAtEnd: false, audioSink: "fakesink sync=true", videoSink: nil,
            printEvents: false, printProgress: false, progressInterval: 0.1, volume: nil, mute: false,
            startPosition: nil)
        var withRule = options
        withRule.networkRule = networkRule
        withRule.quality = quality
        withRule.resumeFile = resumeFile
        withRule.inputConf = inputConf
        withRule.autoload = autoload
        if let review {
            withRule.review = review
            withRule.repeatMode = .one  // as `reel review` sets it
        }
        session = WindowSession(options: withRule)
        session.captureDirectory = tmp
        // Never the desktop's own recent list: this run's, unless the test gives one.
        session.recentFilesPath = recentFile ?? tmp.appendingPathComponent("recently-used.xbel").path
        // With a display, a session that cannot start is a failure, not a skip: it would hide a
        // broken video sink behind every window test.
        guard session.start(width: width, height: height) == true else { throw SessionError.couldNotStart }
        UIRuntime.run(until: { self.window.size == (width, height) }, timeout: 5)
        XKeyboard.focus(window.windowID)
        XKeyboard.parkPointer()
        if !play { player.pause() }
    }

    func close() {
        session.shutdown()
        try? FileManager.default.removeItem(at: tmp)
    }

    @discardableResult
    func wait(_ what: String, timeout: Double = 12, _ condition: () -> Bool) -> Bool {
        let ok = UIRuntime.run(until: condition, timeout: timeout)
        XCTAssertTrue(ok, "timed out waiting for \(what)")
        return ok
    }

    /// Pauses at exactly `seconds` and waits until that frame is on screen.
    func pause(at seconds: Double) {
        player.pause()
        session.perform(.seek(to: seconds))
        wait("paused at \(seconds)") {
            player.timeControlStatus == .paused && abs((player.displayedFrameTime ?? -1) - seconds) < 0.05
                && abs(session.state.position - seconds) < 0.05
        }
        UIRuntime.spin(for: 0.2)
        player.expose()
        UIRuntime.settle()
    }

    /// Sends a real key press to the window.
    func press(_ chord: String) {
        XKeyboard.key(chord, window: window.windowID)
        UIRuntime.settle()
    }

    func capture(_ name: String) throws -> String {
        let path = tmp.appendingPathComponent("\(name).png").path
        try window.capturePNG(to: path)
        return path
    }

    /// The color at the middle of the video area in a capture.
    func videoCenterColor(_ capture: String) -> PixelProbe.RGB? {
        let v = window.videoRect
        return PixelProbe.pixel(capture, x: v.x + v.width / 2, y: v.y + v.height / 2)
    }

    func assertGolden(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let path = try capture(name)
        let outcome = ScreenshotGolden.check(path, name: name, directory: SessionHarness.goldens, maxPixels: 150)
        XCTAssertTrue(outcome.matches, outcome.message, file: file, line: line)
    }

    nonisolated static func assertPalette(_ color: PixelProbe.RGB?, _ index: Int, _ message: String = "", file: StaticString = #filePath, line: UInt = #line) {
        guard let color else { return XCTFail("no pixel \(message)", file: file, line: line) }
        XCTAssertEqual(TestMedia.paletteIndex(r: color.r, g: color.g, b: color.b), index, "\(color) \(message)", file: file, line: line)
        let p = TestMedia.palette[index]
        XCTAssertLessThan(abs(color.r - p.r) + abs(color.g - p.g) + abs(color.b - p.b), 60, "\(color) is not palette[\(index)] \(message)", file: file, line: line)
    }
}

enum SessionError: Error { case couldNotStart }
