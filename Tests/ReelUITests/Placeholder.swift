import XCTest
final class ReelUITestsPlaceholder: XCTestCase { func testNothing() {} }
