import XCTest
final class ReelCoreTestsPlaceholder: XCTestCase { func testNothing() {} }
