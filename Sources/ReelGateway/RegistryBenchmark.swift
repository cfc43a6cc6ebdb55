import Foundation
import ReelCore

/// What registering a playlist's URIs costs the gateway: a media playlist of N segments is
/// rewritten as the item's playlist (every segment registered), then a live stream with signed
/// segment URLs (new URLs on every refresh) is refreshed many times, and the item's resource table
/// is counted. For `make bench` (`reel bench-gateway --registry`), not for tests' assertions.
public enum RegistryBenchmark {
    public struct Row: Sendable {
        public var segments: Int
        public var milliseconds: Double
        public var resources: Int
    }

    public struct Report: Sendable {
        public var vod: [Row]
        /// Refreshes of a 6-segment live window with fresh signed URLs each time.
        public var liveRefreshes: Int
        public var liveResources: Int
        public var liveMillisecondsPerRefresh: Double

        public var text: String {
            var lines = ["gateway registry: rewrite a media playlist of N segments (every URI registered)"]
            for r in vod {
                lines.append(String(format: "  %7d segments  %9.1f ms  %8.2f µs/segment  table %d", r.segments, r.milliseconds,
                                    r.milliseconds * 1000 / Double(max(1, r.segments)), r.resources))
            }
            lines.append(String(format: "  live, signed URLs: %d refreshes of 6 segments, %.3f ms each, table %d resources",
                                liveRefreshes, liveMillisecondsPerRefresh, liveResources))
            return lines.joined(separator: "\n")
        }

        public var json: String {
            let rows = vod.map { String(format: "{\"segments\":%d,\"ms\":%.3f,\"resources\":%d}", $0.segments, $0.milliseconds, $0.resources) }
            return String(format: "{\"vod\":[%@],\"liveRefreshes\":%d,\"liveResources\":%d,\"liveMsPerRefresh\":%.4f}",
                          rows.joined(separator: ","), liveRefreshes, liveResources, liveMillisecondsPerRefresh)
        }
    }

    /// A VOD media playlist of `segments` 2 s segments, or a live window of 6 starting at
    /// `sequence` whose URLs carry a per-refresh signature.
    public static func mediaPlaylist(segments: Int, sequence: Int = 0, signature: String? = nil) -> String {
        var out = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:\(sequence)\n"
        out.reserveCapacity(segments * 40)
        for i in sequence..<(sequence + segments) {
            out += "#EXTINF:2.000,\nseg\(i).ts"
            if let signature { out += "?sig=\(signature)" }
            out += "\n"
        }
        if signature == nil { out += "#EXT-X-ENDLIST\n" }
        return out
    }

    public static func run(segmentCounts: [Int], liveRefreshes: Int) throws -> Report {
        let gateway = try Gateway.startBlocking()
        defer { gateway.shutdownBlocking() }
        let base = URL(string: "https://cdn.example.invalid/vod/index.m3u8")!
        var rows: [Row] = []
        for n in segmentCounts {
            let (id, _) = gateway.register(GatewayItem(url: base))
            let text = mediaPlaylist(segments: n)
            let start = ContinuousClock.now
            _ = gateway.rewritePlaylist(text, of: id)
            rows.append(Row(segments: n, milliseconds: milliseconds(ContinuousClock.now - start), resources: gateway.resourceCount(id) ?? 0))
            gateway.unregister(id)
        }
        let (live, _) = gateway.register(GatewayItem(url: URL(string: "https://live.example.invalid/ch1/index.m3u8")!))
        let start = ContinuousClock.now
        for r in 0..<liveRefreshes {
            _ = gateway.rewritePlaylist(mediaPlaylist(segments: 6, sequence: r, signature: "r\(r)"), of: live)
        }
        let perRefresh = milliseconds(ContinuousClock.now - start) / Double(max(1, liveRefreshes))
        return Report(vod: rows, liveRefreshes: liveRefreshes, liveResources: gateway.resourceCount(live) ?? 0,
                      liveMillisecondsPerRefresh: perRefresh)
    }

    private static func milliseconds(_ d: Duration) -> Double {
        Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
    }
}
