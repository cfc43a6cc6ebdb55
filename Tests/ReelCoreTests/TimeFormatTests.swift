import ReelCore
import XCTest

final class TimeFormatTests: XCTestCase {
    func testClock() {
        let table: [(Double?, String)] = [
            (0, "0:00"), (5.9, "0:05"), (65, "1:05"), (599.99, "9:59"), (3600, "1:00:00"),
            (3725, "1:02:05"), (-65, "-1:05"), (nil, "--:--"), (.nan, "--:--"), (.infinity, "--:--"),
        ]
        for (input, expected) in table { XCTAssertEqual(TimeFormat.clock(input), expected, "\(String(describing: input))") }
    }

    func testRemaining() {
        XCTAssertEqual(TimeFormat.remaining(position: 30, duration: 95), "-1:05")
        XCTAssertEqual(TimeFormat.remaining(position: 100, duration: 95), "-0:00")
        XCTAssertEqual(TimeFormat.remaining(position: 1, duration: nil), "--:--")
    }

    func testFileStamp() {
        XCTAssertEqual(TimeFormat.fileStamp(0), "00h00m00s000")
        XCTAssertEqual(TimeFormat.fileStamp(3723.5), "01h02m03s500")
        XCTAssertEqual(TimeFormat.fileStamp(-1), "00h00m00s000")
    }

    func testParse() {
        let table: [(String, Double?)] = [
            ("90", 90), ("1:30", 90), ("01:02:03.5", 3723.5), (" 7 ", 7), ("1.5:00", nil),
            ("", nil), ("a", nil), ("1:2:3:4", nil), ("-5", nil), ("1::2", nil),
        ]
        for (input, expected) in table { XCTAssertEqual(TimeFormat.parse(input), expected, "'\(input)'") }
    }
}
