import Foundation
import ReelTestSupport
import XCTest
@testable import ReelApp

/// The window reopens at the size it was left at (Totem's and Celluloid's habit).
final class WindowSizeMemoryTests: XCTestCase {
    func testTheSizeIsKeptWithinBoundsAndABadFileIsTheDefault() throws {
        let dir = TestMedia.temporaryDirectory("reel-window-size")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("reel/window.json").path
        XCTAssertNil(WindowSizeMemory.recall(path: path))
        WindowSizeMemory.remember((800, 450), path: path)
        XCTAssertEqual(WindowSizeMemory.recall(path: path), .init(width: 800, height: 450))
        let mode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)
        XCTAssertEqual(mode.intValue & 0o777, 0o600)
        WindowSizeMemory.remember((1, 1), path: path)  // a destroyed window's: not kept
        XCTAssertEqual(WindowSizeMemory.recall(path: path), .init(width: 800, height: 450))
        WindowSizeMemory.remember((800, 450), position: (120, 64), path: path)  // X11's
        XCTAssertEqual(WindowSizeMemory.recall(path: path), .init(width: 800, height: 450, x: 120, y: 64))
        try "{\"width\": 99999999, \"height\": 2}".write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertNil(WindowSizeMemory.recall(path: path))
        try "not json".write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertNil(WindowSizeMemory.recall(path: path))
    }

    func testAWindowResizedAndClosedReopensAtThatSize() throws {
        guard ProcessInfo.processInfo.environment["DISPLAY"] != nil else { throw XCTSkip("no X display: run under xvfb-run (make test does)") }
        let dir = TestMedia.temporaryDirectory("reel-window-size-run")
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("reel.sock").path
        func run(_ body: (String) throws -> Void) throws {
            let reel = try BackgroundProcess(ProcessRunner.reelExecutable, ["--autoload=no", "--no-mpris", "--no-resume", "--ipc", socket,
                                                                            "--audio-sink", "fakesink sync=true", TestMedia.path("color10s.mp4")],
                                             environment: ["XDG_STATE_HOME": dir.path])
            defer { _ = reel.finish(timeout: 10) }
            let client = try XCTUnwrap(IPCTestClient(path: socket), reel.stderr)
            let found = ProcessRunner.run("/usr/bin/xdotool", ["search", "--sync", "--onlyvisible", "--name", "color10s.mp4 — Reel"], timeout: 20)
            let id = try XCTUnwrap(found.stdout.split(separator: "\n").first.map(String.init), found.stderr)
            try body(id)
            XCTAssertEqual(client.request(["quit"], id: 1)?["error"] as? String, "success")
        }
        func geometry(_ id: String) -> String {
            let g = ProcessRunner.run("/usr/bin/xdotool", ["getwindowgeometry", id], timeout: 10).stdout
            return g.split(separator: "\n").first { $0.contains("Geometry:") }.map { String($0.split(separator: " ").last ?? "") } ?? g
        }
        func position(_ id: String) -> String {
            let g = ProcessRunner.run("/usr/bin/xdotool", ["getwindowgeometry", id], timeout: 10).stdout
            return g.split(separator: "\n").first { $0.contains("Position:") }.map { String($0.split(separator: " ")[1]) } ?? g
        }
        try run { id in
            _ = ProcessRunner.run("/usr/bin/xdotool", ["windowsize", "--sync", id, "720", "480"], timeout: 10)
            _ = ProcessRunner.run("/usr/bin/xdotool", ["windowmove", "--sync", id, "140", "90"], timeout: 10)
            let deadline = Date().addingTimeInterval(5)
            while (geometry(id) != "720x480" || position(id) != "140,90") && Date() < deadline { usleep(100_000) }
            XCTAssertEqual(geometry(id), "720x480")
            XCTAssertEqual(position(id), "140,90")
        }
        let kept = try String(contentsOf: dir.appendingPathComponent("reel/window.json"), encoding: .utf8)
        XCTAssertTrue(kept.contains("\"width\": 720") && kept.contains("\"height\": 480"), kept)
        XCTAssertTrue(kept.contains("\"x\": 140") && kept.contains("\"y\": 90"), kept)
        try run { id in
            XCTAssertEqual(geometry(id), "720x480", "reopened at the size it was left at")
            XCTAssertEqual(position(id), "140,90", "and where it was (X11)")
        }
    }
}
