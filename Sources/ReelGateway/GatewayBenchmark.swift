import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix
import ReelCore

/// What the gateway costs: per-request latency (small bodies) and throughput (large bodies)
/// through the gateway against direct requests to the same loopback server. Self-contained: it
/// starts its own upstream server and gateway, and stops them. For `make bench`, not for tests'
/// assertions.
///
///     let report = try await GatewayBenchmark.run()
///     print(report.text)          // human-readable
///     print(report.json)          // one JSON object
public enum GatewayBenchmark {
    public struct Options: Sendable {
        /// Sequential requests of a 1 KiB body, per path (direct, gateway).
        public var latencyRequests: Int
        /// Size of the large body.
        public var largeBytes: Int
        /// Sequential requests of the large body, per path.
        public var throughputRequests: Int
        /// Send a header through the gateway (as a protected item would).
        public var withHeader: Bool

        public init(latencyRequests: Int = 300, largeBytes: Int = 64 << 20, throughputRequests: Int = 5, withHeader: Bool = true) {
            self.latencyRequests = latencyRequests
            self.largeBytes = largeBytes
            self.throughputRequests = throughputRequests
            self.withHeader = withHeader
        }
    }

    /// Milliseconds per request and MiB per second, for one path.
    public struct PathResult: Sendable {
        public var medianMilliseconds: Double
        public var p95Milliseconds: Double
        public var meanMilliseconds: Double
        public var mebibytesPerSecond: Double
    }

    public struct Report: Sendable {
        public var options: Options
        public var direct: PathResult
        public var gateway: PathResult

        /// Extra milliseconds per request (median) the gateway adds.
        public var addedMedianMilliseconds: Double { gateway.medianMilliseconds - direct.medianMilliseconds }
        /// Gateway throughput as a fraction of direct.
        public var throughputRatio: Double { direct.mebibytesPerSecond > 0 ? gateway.mebibytesPerSecond / direct.mebibytesPerSecond : 0 }

        public var text: String {
            func f(_ v: Double) -> String { String(format: "%.3f", v) }
            return """
            gateway benchmark: \(options.latencyRequests) × 1 KiB, \(options.throughputRequests) × \(options.largeBytes >> 20) MiB, loopback
              latency    direct  median \(f(direct.medianMilliseconds)) ms  p95 \(f(direct.p95Milliseconds)) ms
              latency    gateway median \(f(gateway.medianMilliseconds)) ms  p95 \(f(gateway.p95Milliseconds)) ms  (+\(f(addedMedianMilliseconds)) ms)
              throughput direct  \(String(format: "%.1f", direct.mebibytesPerSecond)) MiB/s
              throughput gateway \(String(format: "%.1f", gateway.mebibytesPerSecond)) MiB/s  (\(String(format: "%.0f", throughputRatio * 100)) % of direct)
            """
        }

        public var json: String {
            func path(_ p: PathResult) -> String {
                String(format: #"{"median_ms":%.4f,"p95_ms":%.4f,"mean_ms":%.4f,"mib_per_s":%.2f}"#,
                       p.medianMilliseconds, p.p95Milliseconds, p.meanMilliseconds, p.mebibytesPerSecond)
            }
            return #"{"benchmark":"gateway","latency_requests":\#(options.latencyRequests),"large_bytes":\#(options.largeBytes),"#
                + #""throughput_requests":\#(options.throughputRequests),"direct":\#(path(direct)),"gateway":\#(path(gateway))}"#
        }
    }

    public static func run(_ options: Options = Options()) async throws -> Report {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let upstream = try await BenchmarkUpstream(group: group, largeBytes: options.largeBytes)
        let gateway = try await Gateway.start()
        let client = HTTPClient(eventLoopGroup: group, configuration: .init(redirectConfiguration: .disallow))
        func shutdown() async {
            try? await client.shutdown()
            await gateway.shutdown()
            await upstream.close()
            try? await group.shutdownGracefully()
        }
        do {
            let base = "http://127.0.0.1:\(upstream.port)"
            let headers = options.withHeader ? [try HeaderField(name: "X-Bench-Key", value: "bench-secret-value")] : []
            let small = gateway.register(GatewayItem(url: URL(string: base + "/small")!, headers: headers)).url.absoluteString
            let large = gateway.register(GatewayItem(url: URL(string: base + "/large")!, headers: headers)).url.absoluteString
            // Warm both paths (connections, pools).
            for url in [base + "/small", small] { _ = try await get(url, client: client) }
            let direct = try await measure(small: base + "/small", large: base + "/large", options: options, client: client)
            let through = try await measure(small: small, large: large, options: options, client: client)
            await shutdown()
            return Report(options: options, direct: direct, gateway: through)
        } catch {
            await shutdown()
            throw error
        }
    }

    /// `run` for synchronous callers.
    public static func runBlocking(_ options: Options = Options()) throws -> Report {
        let box = BlockingBox<Result<Report, any Error>>()
        Task.detached {
            do { box.put(.success(try await run(options))) } catch { box.put(.failure(error)) }
        }
        return try box.take().get()
    }

    private static func measure(small: String, large: String, options: Options, client: HTTPClient) async throws -> PathResult {
        var times: [Double] = []
        times.reserveCapacity(options.latencyRequests)
        for _ in 0..<options.latencyRequests {
            let start = ContinuousClock.now
            _ = try await get(small, client: client)
            times.append(milliseconds(ContinuousClock.now - start))
        }
        times.sort()
        let start = ContinuousClock.now
        var bytes = 0
        for _ in 0..<options.throughputRequests { bytes += try await get(large, client: client) }
        let seconds = milliseconds(ContinuousClock.now - start) / 1000
        return PathResult(medianMilliseconds: percentile(times, 0.5), p95Milliseconds: percentile(times, 0.95),
                          meanMilliseconds: times.reduce(0, +) / Double(max(1, times.count)),
                          mebibytesPerSecond: seconds > 0 ? Double(bytes) / 1_048_576 / seconds : 0)
    }

    /// GETs `url`, consuming the body; returns its size.
    private static func get(_ url: String, client: HTTPClient) async throws -> Int {
        let response = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(60))
        guard response.status == .ok else { throw PlaybackError(kind: .serverError, message: "benchmark: HTTP \(response.status.code) for \(url)") }
        var total = 0
        for try await chunk in response.body { total += chunk.readableBytes }
        return total
    }

    private static func milliseconds(_ d: Duration) -> Double {
        Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
    }

    private static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
    }
}
