import Foundation
import ReelCore
import ReelTestSupport
import XCTest
@testable import ReelUI

/// A state-driven `PlayerWindow` at a pinned size and look, recording the actions it emits.
@MainActor
final class WindowHarness {
    nonisolated static let goldens = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Goldens")
    let window: PlayerWindow
    var actions: [UIAction] = []
    let tmp = TestMedia.temporaryDirectory("reel-ui")

    init(width: Int = 640, height: Int = 400, state: PlayerViewState = PlayerViewState()) throws {
        guard UIRuntime.start() else { throw XCTSkip("no X display: run under xvfb-run (make test does)") }
        UIRuntime.pinAppearance()
        window = PlayerWindow(width: width, height: height)
        window.onAction = { [unowned self] in self.actions.append($0) }
        window.render(state)
        window.show()
        UIRuntime.run(until: { self.window.size == (width, height) }, timeout: 5)
        XKeyboard.focus(window.windowID)
        XKeyboard.parkPointer()
        UIRuntime.settle()
    }

    func close() {
        window.close()
        UIRuntime.settle()
        try? FileManager.default.removeItem(at: tmp)
    }

    /// Captures the window to a PNG and returns its path.
    func capture(_ name: String) throws -> String {
        let path = tmp.appendingPathComponent("\(name).png").path
        try window.capturePNG(to: path)
        return path
    }

    /// Captures and compares with the golden `name`.
    func assertGolden(_ name: String, maxPixels: Int = 20, file: StaticString = #filePath, line: UInt = #line) throws {
        let path = try capture(name)
        let outcome = ScreenshotGolden.check(path, name: name, directory: WindowHarness.goldens, maxPixels: maxPixels)
        XCTAssertTrue(outcome.matches, outcome.message, file: file, line: line)
    }

    /// Sends real key presses and waits until `count` more actions arrived (or 3 s).
    @discardableResult
    func press(_ chords: String..., expecting count: Int = 1) -> [UIAction] {
        let before = actions.count
        for c in chords { XKeyboard.key(c, window: window.windowID) }
        UIRuntime.run(until: { self.actions.count >= before + count }, timeout: 3)
        UIRuntime.settle()
        return Array(actions[before...])
    }

    nonisolated static func sample(title: String = "color10s.mp4", position: Double = 2.5, duration: Double = 10) -> PlayerViewState {
        var s = PlayerViewState(title: title)
        s.position = position
        s.duration = duration
        s.volume = 0.8
        s.playlist = [PlaylistRow(title: title, duration: duration, isCurrent: true)]
        return s
    }
}
