import AsyncHTTPClient
import Foundation
import ReelCore
import XCTest
@testable import ReelGateway

/// A failed upstream request says what happened (issue 46, item 15): waiting for the gateway's own
/// connection is not the server stopping, nor is a refused connection.
final class GatewayFailureWordingTests: XCTestCase {
    func testThePoolTheConnectAndTheServerAreToldApart() {
        let url = URL(string: "https://cdn.example/live/seg7.ts?token=SECRET")!
        let pool = GatewayRequestHandler.networkError(HTTPClientError.getConnectionFromPoolTimeout, url: url)
        XCTAssertEqual(pool.kind, .timeout)
        XCTAssertTrue(pool.message.hasPrefix("Reel's gateway had no free connection to cdn.example"), pool.message)
        XCTAssertFalse(pool.message.contains("stopped answering"))
        XCTAssertFalse(pool.message.contains("SECRET"))
        let connect = GatewayRequestHandler.networkError(HTTPClientError.connectTimeout, url: url)
        XCTAssertTrue(connect.message.hasPrefix("cdn.example did not accept a connection in time"), connect.message)
        let stalled = GatewayRequestHandler.networkError(HTTPClientError.deadlineExceeded, url: url)
        XCTAssertEqual(stalled.kind, .timeout)
        XCTAssertTrue(stalled.message.hasPrefix("The server stopped answering"), stalled.message)
    }
}
