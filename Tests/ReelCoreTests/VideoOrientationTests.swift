import ReelCore
import XCTest

/// GStreamer's `image-orientation` values as qtdemux and matroskademux post them, and junk.
final class VideoOrientationTests: XCTestCase {
    func testTagTable() {
        let table: [(tag: String, orientation: VideoOrientation?, displayed: (Int, Int)?)] = [
            ("rotate-0", .upright, (1920, 1080)),
            ("rotate-90", VideoOrientation(degrees: 90, flipped: false), (1080, 1920)),
            ("rotate-180", VideoOrientation(degrees: 180, flipped: false), (1920, 1080)),
            ("rotate-270", VideoOrientation(degrees: 270, flipped: false), (1080, 1920)),
            ("flip-rotate-0", VideoOrientation(degrees: 0, flipped: true), (1920, 1080)),
            ("flip-rotate-90", VideoOrientation(degrees: 90, flipped: true), (1080, 1920)),
            (" Rotate-270 ", VideoOrientation(degrees: 270, flipped: false), (1080, 1920)),
            ("rotate-45", nil, nil),
            ("rotate-", nil, nil),
            ("flip-", nil, nil),
            ("upside-down", nil, nil),
            ("", nil, nil),
        ]
        for row in table {
            let parsed = VideoOrientation(tag: row.tag)
            XCTAssertEqual(parsed, row.orientation, row.tag)
            if let parsed, let displayed = row.displayed {
                let size = parsed.displayed(width: 1920, height: 1080)
                XCTAssertEqual([size.width, size.height], [displayed.0, displayed.1], row.tag)
            }
        }
    }
}
