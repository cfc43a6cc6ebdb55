import Foundation
import ReelCore
import ReelTestSupport
import ReelUI
import XCTest

/// The contact sheet as a user sees it: rows, thumbnails where they belong, failed rows tinted.
final class ContactSheetRendererTests: XCTestCase {
    func testRowsThumbnailsAndFailuresAreWhereTheLayoutSays() throws {
        let dir = TestMedia.temporaryDirectory("reel-sheet")
        defer { try? FileManager.default.removeItem(at: dir) }
        let red = dir.appendingPathComponent("red.png").path, blue = dir.appendingPathComponent("blue.png").path
        XCTAssertEqual(ProcessRunner.run("/usr/bin/convert", ["-size", "640x360", "xc:#ff0000", red]).status, 0)
        XCTAssertEqual(ProcessRunner.run("/usr/bin/convert", ["-size", "320x320", "xc:#0000ff", blue]).status, 0)
        let rows = [
            ContactSheetRenderer.Row(title: "good <clip> & ünïcode", details: "#0  0:10  640×360", failure: nil,
                                     thumbnails: [.init(path: red, caption: "10%"), .init(path: blue, caption: "50%")]),
            ContactSheetRenderer.Row(title: "missing.mp4", details: "#1", failure: "not-found: The file does not exist.",
                                     thumbnails: [.init(path: nil, caption: "10%: not captured"), .init(path: dir.appendingPathComponent("nope.png").path, caption: "x")]),
        ]
        let out = dir.appendingPathComponent("sheet.png").path
        let layout = ContactSheetRenderer.Layout()
        let size = try ContactSheetRenderer.render(rows, to: out, layout: layout)
        XCTAssertEqual(PixelProbe.size(out)?.width, size.width)
        XCTAssertEqual(PixelProbe.size(out)?.height, 2 * layout.rowHeight)
        XCTAssertEqual(size.width, layout.textWidth + 2 * (layout.thumbnailWidth + layout.padding) + layout.padding)

        func at(_ x: Int, _ y: Int) throws -> PixelProbe.RGB { try XCTUnwrap(PixelProbe.pixel(out, x: x, y: y)) }
        let thumbY = layout.padding + layout.thumbnailHeight / 2
        let col0 = layout.textWidth + layout.thumbnailWidth / 2
        let col1 = layout.textWidth + layout.thumbnailWidth + layout.padding + layout.thumbnailWidth / 2
        XCTAssertLessThan(try at(col0, thumbY).off(255, 0, 0), 10, "first thumbnail is the red frame")
        XCTAssertLessThan(try at(col1, thumbY).off(0, 0, 255), 10, "a square frame is letterboxed, centred")
        XCTAssertLessThan(try at(col1 - layout.thumbnailWidth / 2 + 2, thumbY).off(0, 0, 0), 10, "letterbox bars are black")
        // Row 1 failed: tinted background, grey boxes for the frames it does not have.
        let row1 = layout.rowHeight
        XCTAssertLessThan(try at(layout.textWidth - 4, row1 + layout.rowHeight - 6).off(252, 217, 217), 8)
        XCTAssertLessThan(try at(layout.textWidth - 4, layout.rowHeight - 6).off(255, 255, 255), 8, "an ok row stays white")
        XCTAssertLessThan(try at(col0, row1 + thumbY).off(153, 153, 153), 8)
        XCTAssertLessThan(try at(col1, row1 + thumbY).off(153, 153, 153), 8, "an unreadable PNG is a missing frame")
        // Text was drawn: the failure line is dark red somewhere in the text column of row 1.
        let crop = ProcessRunner.run("/usr/bin/convert", [out, "-crop", "\(layout.textWidth)x\(layout.rowHeight)+0+\(row1)", "+repage",
                                                          "-fuzz", "20%", "-fill", "white", "+opaque", "#b30000", "-format", "%[fx:mean]", "info:"])
        let mean = Double(crop.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 1
        XCTAssertLessThan(mean, 0.999, "red failure text is drawn in the failed row (\(crop.stdout) \(crop.stderr))")
    }
}

private extension PixelProbe.RGB {
    /// The distance to (r, g, b), summed over channels.
    func off(_ r: Int, _ g: Int, _ b: Int) -> Int { abs(self.r - r) + abs(self.g - g) + abs(self.b - b) }
}
