import Foundation
import ReelCore
import ReelEngine
import ReelGLib
import ReelTestSupport
import XCTest

/// The picture controls, the A-B loop and the audio delay on a real pipeline (color10s.mp4: one
/// palette colour a second; second 0 red, second 6 white).
final class PictureAndLoopEngineTests: XCTestCase {
    private static func centre(of png: Data) throws -> PixelProbe.RGB {
        let dir = TestMedia.temporaryDirectory("reel-picture")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("f.png")
        try png.write(to: file)
        return try XCTUnwrap(PixelProbe.pixel(file.path, x: 320, y: 180))
    }

    func testBrightnessAndSaturationChangeTheFramesOnScreenAndZeroGivesThemBack() throws {
        try onMain {
            let h = try EngineHarness(sync: false)
            defer { h.shutdown() }
            h.player.load(TestMedia.path("color10s.mp4"))
            let white = try Self.centre(of: h.player.captureFrame(at: 6.5).get().png)
            XCTAssertGreaterThan(white.r + white.g + white.b, 700, "\(white)")
            h.player.setPicture(.brightness, to: -50)
            let darker = try Self.centre(of: h.player.captureFrame(at: 6.5).get().png)
            XCTAssertLessThan(darker.r + darker.g + darker.b, 500, "brightness -50: \(darker)")
            h.player.setPicture(.brightness, to: 0)
            h.player.setPicture(.saturation, to: -100)
            let grey = try Self.centre(of: h.player.captureFrame(at: 0.5).get().png)
            XCTAssertLessThan(max(grey.r, grey.g, grey.b) - min(grey.r, grey.g, grey.b), 30, "red without saturation is grey: \(grey)")
            h.player.setPicture(.saturation, to: 0)
            let red = try Self.centre(of: h.player.captureFrame(at: 0.5).get().png)
            XCTAssertTrue(red.r > 200 && red.g < 60 && red.b < 60, "back to red: \(red)")
            // Kept for the next item (a new pipeline).
            h.player.setPicture(.brightness, to: -50)
            h.player.load(TestMedia.path("color10s.mp4"))
            let next = try Self.centre(of: h.player.captureFrame(at: 6.5).get().png)
            XCTAssertLessThan(next.r + next.g + next.b, 500, "the next item too: \(next)")
        }
    }

    func testAnABLoopPlaysItsStretchAgainAndAgain() throws {
        try onMain {
            let h = try EngineHarness(sync: true)
            defer { h.shutdown() }
            h.player.load(TestMedia.path("color10s.mp4"))
            h.waitReady()
            h.player.setABLoop(ABLoop(a: 1, b: 2))
            h.player.seek(to: 1, mode: .accurate)
            h.player.play()
            let start = Date()
            GLibMainLoop.spin(for: 3.5)
            let seeks = h.events.filter { if case .seeked = $0.event, $0.time > start { true } else { false } }.count
            XCTAssertGreaterThanOrEqual(seeks, 2, "back to A at least twice in 3.5 s: \(h.events.map(\.event).suffix(30))")
            let positions = h.progress().filter { $0.time > start }.map(\.position)
            XCTAssertLessThan(positions.max() ?? 99, 2.5, "never far past B: \(positions)")
            XCTAssertGreaterThan(positions.max() ?? 0, 1.7, "up to B: \(positions)")
            h.player.setABLoop(ABLoop())
            h.wait("plays on past B once cleared", timeout: 10) { h.player.position > 3 }
        }
    }
}


/// The picture turned, zoomed and panned on a real pipeline: landscape.mp4 is red left, blue
/// right (320×180); banded4x3.mp4 has red bands above and below a blue middle.
final class VideoGeometryEngineTests: XCTestCase {
    private static func probe(_ png: Data, _ points: [(Double, Double)]) throws -> (size: (Int, Int), colours: [PixelProbe.RGB]) {
        let dir = TestMedia.temporaryDirectory("reel-geometry")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("f.png")
        try png.write(to: file)
        let size = try XCTUnwrap(PixelProbe.size(file.path))
        let colours = try points.map { p in try XCTUnwrap(PixelProbe.pixel(file.path, x: Int(Double(size.width) * p.0), y: Int(Double(size.height) * p.1))) }
        return ((size.width, size.height), colours)
    }

    func testAQuarterTurnAndAZoomShowWhatTheyShould() throws {
        func isRed(_ c: PixelProbe.RGB) -> Bool { c.r > 180 && c.g < 70 && c.b < 70 }
        func isBlue(_ c: PixelProbe.RGB) -> Bool { c.b > 180 && c.r < 70 && c.g < 70 }
        try onMain {
            let h = try EngineHarness(sync: false)
            defer { h.shutdown() }
            h.player.load(TestMedia.path("landscape.mp4"))
            var g = VideoGeometry()
            g.rotate = 90
            h.player.setVideoGeometry(g)
            let turned = try Self.probe(h.player.captureFrame(at: 0.5).get().png, [(0.5, 0.2), (0.5, 0.8)])
            XCTAssertEqual(turned.size.0, 180, "a quarter turn: \(turned.size)")
            XCTAssertEqual(turned.size.1, 320)
            XCTAssertTrue(isRed(turned.colours[0]) && isBlue(turned.colours[1]), "clockwise: the left (red) on top: \(turned.colours)")

            h.player.setVideoGeometry(VideoGeometry())
            h.player.load(TestMedia.path("banded4x3.mp4"))
            let whole = try Self.probe(h.player.captureFrame(at: 0.5).get().png, [(0.5, 0.03)])
            XCTAssertTrue(isRed(whole.colours[0]), "the red band at the top: \(whole.colours)")
            g = VideoGeometry()
            g.zoom = 1
            h.player.setVideoGeometry(g)
            let zoomed = try Self.probe(h.player.captureFrame(at: 0.5).get().png, [(0.5, 0.03), (0.5, 0.97)])
            XCTAssertTrue(isBlue(zoomed.colours[0]) && isBlue(zoomed.colours[1]), "zoomed twice: only the blue middle: \(zoomed.colours)")
            XCTAssertEqual(zoomed.size.0, whole.size.0 / 2, accuracy: 2)
            XCTAssertEqual(h.events.filter { if case .videoGeometry = $0.event { true } else { false } }.count, 3)
        }
    }
}
