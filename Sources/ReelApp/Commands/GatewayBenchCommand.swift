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

    @Option(help: ArgumentHelp("Instead: the registry's cost of rewriting media playlists of these segment counts (comma-separated), and of live refreshes with signed URLs.",
                               valueName: "N,…"))
    var registry: String?

    func validate() throws {
        guard requests > 0, largeMib > 0, largeRequests > 0 else { throw ValidationError("Counts and sizes must be positive.") }
    }

    func run() throws {
        if let registry {
            let counts = registry.split(separator: ",").compactMap { Int($0) }.filter { (1...10_000_000).contains($0) }
            guard !counts.isEmpty else { throw ValidationError("--registry takes segment counts, e.g. 1000,8000,200000.") }
            let report = try RegistryBenchmark.run(segmentCounts: counts, liveRefreshes: 20_000)
            print(json ? report.json : report.text)
            return
        }
        let report = try GatewayBenchmark.runBlocking(.init(latencyRequests: requests, largeBytes: largeMib << 20, throughputRequests: largeRequests))
        print(json ? report.json : report.text)
    }
}
