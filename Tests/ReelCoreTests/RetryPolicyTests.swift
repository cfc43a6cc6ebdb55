import ReelCore
import XCTest

final class RetryPolicyTests: XCTestCase {
    func testWhatIsRetried() {
        let p = RetryPolicy(maxRetries: 2)
        func e(_ k: PlaybackErrorKind) -> PlaybackError { PlaybackError(kind: k, message: "x") }
        let table: [(PlaybackErrorKind, Int, Bool, Bool)] = [
            (.network, 1, true, true), (.network, 2, true, true), (.network, 3, true, false),
            (.timeout, 1, true, false),  // a stall already cost the whole timeout: not by default
            (.serverError, 1, true, true), (.serverError, 3, true, false),
            (.network, 1, false, false),  // local items are never retried
            (.notFound, 1, true, false), (.notAuthorized, 1, true, false), (.corrupt, 1, true, false),
            (.unsupportedFormat, 1, true, false),
        ]
        for (kind, failures, network, expected) in table {
            XCTAssertEqual(p.shouldRetry(e(kind), failures: failures, isNetworkItem: network), expected, "\(kind) \(failures) \(network)")
        }
        XCTAssertFalse(RetryPolicy.none.shouldRetry(e(.network), failures: 1, isNetworkItem: true))
        let withTimeouts = RetryPolicy(maxRetries: 1, kinds: [.network, .timeout, .notFound])
        XCTAssertTrue(withTimeouts.shouldRetry(e(.timeout), failures: 1, isNetworkItem: true))
        XCTAssertFalse(withTimeouts.shouldRetry(e(.notFound), failures: 1, isNetworkItem: true), "never retryable, whatever kinds says")
        XCTAssertFalse(withTimeouts.shouldRetry(e(.serverError), failures: 1, isNetworkItem: true), "not in kinds")
    }

    func testBackoff() {
        let p = RetryPolicy(maxRetries: 5, baseDelay: 0.5, maxDelay: 3, multiplier: 2)
        XCTAssertEqual((1...5).map { p.delay(beforeRetry: $0) }, [0.5, 1, 2, 3, 3])
        XCTAssertEqual(p.delay(beforeRetry: 3, jitter: 1), 2)
        XCTAssertEqual(p.delay(beforeRetry: 3, jitter: 0.5), 1.5)
        XCTAssertEqual(p.delay(beforeRetry: 3, jitter: 0.000_001), 1, accuracy: 0.001)
    }

    func testTheDefaultIsMedia3s() {
        let p = RetryPolicy()
        XCTAssertEqual((1...p.maxRetries).map { p.delay(beforeRetry: $0) }, [0, 1, 2, 3, 4, 5], "min((n−1) × 1 s, 5 s)")
        XCTAssertGreaterThanOrEqual(p.maxRetries, 3)
        XCTAssertEqual(p.delay(beforeRetry: 9), 5)
        XCTAssertEqual((1...p.maxRetries).map { p.delay(beforeRetry: $0) }.reduce(0, +), 15, "rides out a 15 s outage")
    }
}
