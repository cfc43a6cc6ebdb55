import ReelCore
import XCTest

/// mpv's video equalizer values and A-B loop, as pure rules.
final class PictureAndLoopTests: XCTestCase {
    func testPictureValuesAreClampedAndBecomeTheElementsProperties() {
        var p = PictureAdjustments()
        XCTAssertTrue(p.isNeutral)
        let neutral = p.element
        XCTAssertEqual([neutral.brightness, neutral.contrast, neutral.saturation, neutral.hue, neutral.gamma], [0, 1, 1, 0, 1])
        let rows: [(PictureAdjustments.Control, Int, Int)] = [(.brightness, 100, 100), (.contrast, -101, -100), (.saturation, 3000, 100), (.gamma, -50, -50), (.hue, 7, 7)]
        for (control, value, kept) in rows {
            p[control] = value
            XCTAssertEqual(p[control], kept, "\(control) \(value)")
        }
        let e = p.element
        XCTAssertEqual(e.brightness, 1)
        XCTAssertEqual(e.contrast, 0)
        XCTAssertEqual(e.saturation, 2)
        XCTAssertEqual(e.gamma, 0.5, accuracy: 1e-12)
        XCTAssertEqual(e.hue, 0.07, accuracy: 1e-12)
        XCTAssertFalse(p.isNeutral)
    }

    func testTheABLoopCyclesAndSaysWhereToGoBack() {
        var loop = ABLoop()
        XCTAssertNil(loop.jump(from: 5))
        loop.cycle(at: 4)
        XCTAssertEqual(loop, ABLoop(a: 4, b: nil))
        XCTAssertNil(loop.jump(from: 100), "A alone loops nothing")
        loop.cycle(at: 6)
        XCTAssertEqual(loop.range, 4...6)
        let rows: [(Double, Double?)] = [(3, nil), (5.9, nil), (6, 4), (6.9, 4), (7, nil), (30, nil)]
        for (position, target) in rows { XCTAssertEqual(loop.jump(from: position), target, "at \(position)") }
        loop.cycle(at: 9)
        XCTAssertEqual(loop, ABLoop())
        XCTAssertEqual(ABLoop(a: 6, b: 4).range, 4...6, "B before A: the other way round")
        XCTAssertNil(ABLoop(a: 5, b: 5).range)
        XCTAssertNil(ABLoop(a: 5, b: 5.001).range, "1 ms is no loop (a seek at every tick)")
        XCTAssertEqual(ABLoop(a: 5, b: 5.25).range, 5...5.25)
    }
}

/// mpv's video-rotate, video-zoom and video-pan as videobox's sides and videoflip's method.
final class VideoGeometryTests: XCTestCase {
    func testZoomAndPanBecomeTheSidesCutOrAdded() {
        var g = VideoGeometry()
        XCTAssertTrue(g.isNeutral)
        XCTAssertTrue(g.box(width: 640, height: 360) == (0, 0, 0, 0))
        g.zoom = 1  // twice the size: half of each dimension shows
        XCTAssertTrue(g.box(width: 640, height: 360) == (160, 160, 90, 90))
        g.panX = 0.1  // moved right by a tenth of the width: more of the left shows
        XCTAssertTrue(g.box(width: 640, height: 360) == (96, 224, 90, 90))
        g = VideoGeometry()
        g.zoom = -1  // half the size: a border as wide as half the picture around it
        XCTAssertTrue(g.box(width: 640, height: 360) == (-320, -320, -180, -180))
        g.zoom = 99
        XCTAssertEqual(g.zoom, 3, "clamped")
        g.zoom = .nan
        XCTAssertEqual(g.zoom, 0)
        g.rotate = 90
        XCTAssertEqual(g.flipMethod, 1)
        g.rotate = 45
        XCTAssertEqual(g.rotate, 90, "only quarter turns")
        g.rotate = 270
        XCTAssertEqual(g.flipMethod, 3)
    }
}
