import ReelCore
import XCTest

final class CapturePositionTests: XCTestCase {
    func testParsing() {
        let cases: [(String, CapturePosition?)] = [
            ("10%", .percent(10)), (" 12.5 % ", .percent(12.5)), ("0%", .percent(0)), ("100%", .percent(100)),
            ("101%", nil), ("-1%", nil), ("%", nil), ("abc", nil),
            ("5", .seconds(5)), ("1:30", .seconds(90)), ("0:00:02.5", .seconds(2.5)), ("-3", nil), ("", nil),
        ]
        for (text, expected) in cases { XCTAssertEqual(CapturePosition.parse(text), expected, text) }
        XCTAssertEqual(CapturePosition.parseList("10%,50%,90%"), CapturePosition.defaults)
        XCTAssertEqual(CapturePosition.parseList("1.5,0:05"), [.seconds(1.5), .seconds(5)])
        XCTAssertNil(CapturePosition.parseList("10%,,90%"))
        XCTAssertNil(CapturePosition.parseList("10%,x"))
    }

    func testResolvingAgainstADuration() {
        XCTAssertEqual(CapturePosition.percent(50).resolve(duration: 10), 5)
        XCTAssertEqual(CapturePosition.percent(100).resolve(duration: 10)!, 9.95, accuracy: 1e-9, "the last frame, not past the end")
        XCTAssertEqual(CapturePosition.seconds(30).resolve(duration: 10)!, 9.95, accuracy: 1e-9)
        XCTAssertEqual(CapturePosition.seconds(3).resolve(duration: nil), 3, "seconds work on live items")
        XCTAssertNil(CapturePosition.percent(50).resolve(duration: nil), "a percentage needs a duration")
        XCTAssertEqual(CapturePosition.percent(10).description, "10%")
        XCTAssertEqual(CapturePosition.seconds(2.5).description, "2.5")
    }
}
