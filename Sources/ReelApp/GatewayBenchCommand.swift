import ArgumentParser
import Foundation
import ReelGateway

/// `reel bench-gateway`: what the protected-stream gateway costs on this machine (per-request
/// latency and throughput through it against direct, over loopback). For `make bench`.
struct GatewayBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-gateway",
        abstract: "Measure the protected-stream gateway's latency and throughput against direct requests (loopback).")

    @Option(help: "Sequential 1 KiB requests per path.")
    var requests: Int = 300

    @Option(help: "Size of the large body, in MiB.")
    var largeMib: Int = 64

    @Option(help: "Sequential large-body requests per path.")
    var largeRequests: Int = 5

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    func validate() throws {
        guard requests > 0, largeMib > 0, largeRequests > 0 else { throw ValidationError("Counts and sizes must be positive.") }
    }

    func run() throws {
        let report = try GatewayBenchmark.runBlocking(.init(latencyRequests: requests, largeBytes: largeMib << 20, throughputRequests: largeRequests))
        print(json ? report.json : report.text)
    }
}
