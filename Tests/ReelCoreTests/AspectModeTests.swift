import XCTest
@testable import ReelCore

/// The aspect modes' arithmetic: what fill crops to and what pixel aspect ratio stretch sets.
final class AspectModeTests: XCTestCase {
    func testCycle() {
        XCTAssertEqual(AspectMode.fit.next, .fill)
        XCTAssertEqual(AspectMode.fill.next, .stretch)
        XCTAssertEqual(AspectMode.stretch.next, .fit)
    }

    func testFillCropsToTheAreasShape() {
        let rows: [(AspectMode, Int, Int, AspectMode.Ratio?, String)] = [
            (.fill, 640, 360, .init(16, 9), "a 16:9 area"),
            (.fill, 1920, 1080, .init(16, 9), "reduced"),
            (.fill, 500, 500, .init(1, 1), "square"),
            (.fill, 0, 360, nil, "not laid out yet"),
            (.fit, 640, 360, nil, "fit crops nothing"),
            (.stretch, 640, 360, nil, "stretch crops nothing"),
        ]
        for (mode, w, h, expected, why) in rows { XCTAssertEqual(mode.crop(areaWidth: w, areaHeight: h), expected, why) }
    }

    func testStretchGivesThePictureTheAreasShape() {
        let rows: [(Int, Int, Int, Int, AspectMode.Ratio?, String)] = [
            (480, 360, 640, 360, .init(4, 3), "4:3 in 16:9: pixels a third wider"),
            (640, 360, 480, 360, .init(3, 4), "16:9 in 4:3: narrower"),
            (640, 360, 1280, 720, .init(1, 1), "same shape: square pixels"),
            (720, 576, 1024, 576, .init(64, 45), "PAL storage in a 16:9 area"),
            (480, 360, 0, 0, nil, "no area"),
        ]
        for (w, h, aw, ah, expected, why) in rows {
            let par = AspectMode.stretch.stretchedPixelAspect(width: w, height: h, areaWidth: aw, areaHeight: ah)
            XCTAssertEqual(par, expected, why)
            if let par { XCTAssertEqual(Double(w * par.numerator) / Double(h * par.denominator), Double(aw) / Double(ah), accuracy: 1e-9, why) }
        }
        XCTAssertNil(AspectMode.fit.stretchedPixelAspect(width: 480, height: 360, areaWidth: 640, areaHeight: 360))
    }
}
