import Foundation
import ReelGateway
import XCTest

/// The benchmark entry point runs end to end and reports sane numbers (no speed assertions:
/// speed is shown by `make bench`, not by tests).
final class GatewayBenchmarkTests: XCTestCase {
    func testBenchmarkRunsAndReports() async throws {
        let report = try await GatewayBenchmark.run(.init(latencyRequests: 20, largeBytes: 4 << 20, throughputRequests: 2))
        print(report.text)
        for path in [report.direct, report.gateway] {
            XCTAssertGreaterThan(path.medianMilliseconds, 0)
            XCTAssertGreaterThanOrEqual(path.p95Milliseconds, path.medianMilliseconds)
            XCTAssertGreaterThan(path.mebibytesPerSecond, 0)
        }
        XCTAssertTrue(report.text.contains("latency    gateway median"))
        let json = try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any]
        XCTAssertEqual(json?["benchmark"] as? String, "gateway")
        XCTAssertNotNil((json?["gateway"] as? [String: Any])?["median_ms"])
    }
}
