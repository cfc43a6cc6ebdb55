import XCTest
final class ReelGatewayTestsPlaceholder: XCTestCase { func testNothing() {} }
