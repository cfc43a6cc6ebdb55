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
