@testable import ReelEngine
import ReelCore
import XCTest

/// What textoverlay is told for each placement (by table; the window tests check the pixels).
final class TextOverlayLayoutTests: XCTestCase {
    private typealias L = TextOverlayLayout
    private let size = (width: 640.0, height: 360.0)

    private func placement(_ v: SubtitlePlacement.Vertical = .bottom, _ h: SubtitlePlacement.Horizontal = .center,
                           x: Double? = nil, y: Double? = nil, width: Double? = nil) -> SubtitlePlacement {
        var p = SubtitlePlacement(vertical: v, horizontal: h)
        p.x = x
        p.y = y
        p.width = width
        return p
    }

    func testTheOverlaysOwnPlacesAndSubPos() {
        let standard = L(.standard, userPosition: 100, videoSize: size)
        XCTAssertEqual([standard.valignment, standard.halignment, standard.xpad, standard.ypad, standard.deltax], [1, 1, 25, 25, 0])
        let raised = L(.standard, userPosition: 50, videoSize: size)
        XCTAssertEqual(raised.valignment, 3)
        XCTAssertEqual(raised.ypos, 0.5)
        XCTAssertEqual(L(placement(.top, .left), userPosition: 50, videoSize: size).valignment, 2, "sub-pos moves only cues at the bottom")
        XCTAssertEqual(L(placement(.top, .left), userPosition: 100, videoSize: size).halignment, 0)
        XCTAssertEqual(L(placement(.middle, .right), userPosition: 100, videoSize: nil).valignment, 4)
    }

    func testExactHeights() {
        let top = L(placement(.top, y: 0.1), userPosition: 100, videoSize: size)
        XCTAssertEqual([top.valignment, top.ypad], [2, 36])
        let bottom = L(placement(.bottom, y: 0.9), userPosition: 50, videoSize: size)
        XCTAssertEqual([bottom.valignment, bottom.ypad], [1, 36], "an exact height wins over sub-pos")
        let middle = L(placement(.middle, y: 0.25), userPosition: 100, videoSize: size)
        XCTAssertEqual(middle.valignment, 3)
        XCTAssertEqual(middle.ypos, 0.25)
        let unknown = L(placement(.top, y: 0.1), userPosition: 100, videoSize: nil)
        XCTAssertEqual(unknown.valignment, 3, "no size yet: the middle at y")
        XCTAssertEqual(unknown.ypos, 0.1)
    }

    /// Left and right edges at x, wrapping at the width: textoverlay wraps where text and xpad
    /// pass the picture, and deltax moves the text to the box's edge.
    func testExactEdgesAndWidths() {
        let rows: [(SubtitlePlacement, Int32, Int32, Int32)] = [
            (placement(.bottom, .left, x: 0.1, width: 0.9), 0, 64, 0),
            (placement(.bottom, .left, x: 0, width: 0.4), 0, 384, -384),
            (placement(.bottom, .left, x: 0.25), 0, 160, 0),
            (placement(.bottom, .right, x: 0.9, width: 0.3), 2, 448, 384),
            (placement(.bottom, .right, x: 0.75), 2, 160, 0),
        ]
        for (p, halign, xpad, deltax) in rows {
            let l = L(p, userPosition: 100, videoSize: size)
            XCTAssertEqual([l.halignment, l.xpad, l.deltax], [halign, xpad, deltax], "\(p)")
            // Where the text's edge ends up: left: xpad + deltax; right: width − xpad + deltax.
            let edge = halign == 0 ? l.xpad + l.deltax : 640 - l.xpad + l.deltax
            XCTAssertEqual(Double(edge), (p.x ?? 0) * 640, accuracy: 1, "\(p)")
        }
        let centred = L(placement(.bottom, .center, x: 0.3, width: 0.2), userPosition: 100, videoSize: size)
        XCTAssertEqual(centred.halignment, 4)
        XCTAssertEqual(centred.xpos, 0.3)
        let unknown = L(placement(.bottom, .left, x: 0.1), userPosition: 100, videoSize: nil)
        XCTAssertEqual(unknown.halignment, 4)
        XCTAssertEqual(unknown.xpos, 0.1)
    }
}
