import XCTest
final class ReelAppTestsPlaceholder: XCTestCase { func testNothing() {} }
