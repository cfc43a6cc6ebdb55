import ReelCore
import XCTest

/// mpv's `--geometry` (issue 59), by table: what is read, what is refused, the size on a screen.
final class WindowGeometryTests: XCTestCase {
    func testTheFormsMpvTakesAndWhatIsRefused() {
        let screen = (width: 1920, height: 1080), fallback = (width: 960, height: 600)
        let rows: [(String, (Int, Int)?, (Int, Int)?)] = [
            ("800x450", (800, 450), nil), ("800x450+10+20", (800, 450), (10, 20)), ("+30+40", (960, 600), (30, 40)),
            ("50%", (960, 600), nil), ("50%x50%", (960, 540), nil), ("1280", (1280, 800), nil), ("10x10", (160, 90), nil),
        ]
        for (text, size, place) in rows {
            guard let g = WindowGeometry.parse(text) else { XCTFail("\(text) is read"); continue }
            let s = g.size(screen: screen, default: fallback)
            XCTAssertEqual([s.width, s.height], size.map { [$0.0, $0.1] }, text)
            XCTAssertEqual(g.x.flatMap { x in g.y.map { [x, $0] } }, place.map { [$0.0, $0.1] }, text)
        }
        for bad in ["", "x450", "800x", "800x450+10", "0x0", "-5x10", "800x450+-1+2", "abc", "120%", "99999999x1", "800×450", String(repeating: "1", count: 50)] {
            XCTAssertNil(WindowGeometry.parse(bad), bad)
        }
    }
}

/// Golden masks and regions (issue 59), by table.
final class GoldenMaskTests: XCTestCase {
    func testMasksAndRegionsAreReadAndMakeWhatTheyCoverTheSame() {
        XCTAssertEqual(MaskArea.parse("10,20,30,40", widgets: false), .rect(x: 10, y: 20, width: 30, height: 40))
        XCTAssertEqual(MaskArea.parse("Seek", widgets: true), .widget("Seek"))
        for bad in ["Seek", "1,2,3", "1,2,0,4", "-1,2,3,4", "1,2,3,99999"] { XCTAssertNil(MaskArea.parse(bad, widgets: false), bad) }
        XCTAssertEqual(GoldenRegion.parse("0,0,80,45:0.9"), GoldenRegion(x: 0, y: 0, width: 80, height: 45, threshold: 0.9))
        for bad in ["0,0,80,45", "0,0,80,45:2", "0,0,80:0.5", "a:0.5"] { XCTAssertNil(GoldenRegion.parse(bad), bad) }
        let (w, h) = FrameSimilarity.size
        var a = (0..<(w * h)).map { UInt8(truncatingIfNeeded: $0 * 7) }
        var b = a
        for y in 0..<20 { for x in 0..<40 { b[y * w + x] = 255 &- b[y * w + x] } }  // the top-left quarter-ish changed
        let before = FrameSimilarity.compare(a, b, width: w, height: h)
        XCTAssertLessThan(before.worstTile, 0.5)
        let frame = (width: 1600, height: 900)  // ten times the plane
        XCTAssertLessThan(before.ssim(inRegion: GoldenRegion(x: 0, y: 0, width: 400, height: 200, threshold: 0.9), frame: frame) ?? 1, 0.5)
        XCTAssertEqual(before.ssim(inRegion: GoldenRegion(x: 800, y: 450, width: 800, height: 450, threshold: 0.9), frame: frame) ?? 0, 1, accuracy: 1e-9)
        FrameSimilarity.mask(&a, rects: [(0, 0, 400, 200)], frame: frame)
        FrameSimilarity.mask(&b, rects: [(0, 0, 400, 200)], frame: frame)
        XCTAssertEqual(FrameSimilarity.compare(a, b, width: w, height: h).worstTile, 1, accuracy: 1e-9, "masked: the same")
    }
}
