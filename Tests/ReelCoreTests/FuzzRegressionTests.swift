import ReelCore
import XCTest

/// Inputs the fuzzers (Resources/scripts/fuzz.sh) found, kept as plain tests.
final class FuzzRegressionTests: XCTestCase {
    /// TimeFormat.clock trapped converting a huge Double to Int (a parsed "1e20" would do it).
    func testHugeTimesFormatWithoutTrapping() {
        XCTAssertEqual(TimeFormat.clock(1e20), TimeFormat.clock(1e15))
        XCTAssertEqual(TimeFormat.clock(-1e300), "-" + TimeFormat.clock(1e15))
        XCTAssertEqual(TimeFormat.clock(.infinity), "--:--")
        XCTAssertEqual(TimeFormat.fileStamp(.infinity), "00h00m00s000")
        XCTAssertEqual(TimeFormat.fileStamp(.nan), "00h00m00s000")
        XCTAssertFalse(TimeFormat.fileStamp(1e300).isEmpty)
        XCTAssertEqual(TimeFormat.parse("1e20").map(TimeFormat.clock), TimeFormat.clock(1e15))
    }
}
