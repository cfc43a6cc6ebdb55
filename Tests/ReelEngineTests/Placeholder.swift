import XCTest
final class ReelEngineTestsPlaceholder: XCTestCase { func testNothing() {} }
