import Foundation
import ReelCore

/// Playlist parse and rewrite throughput on a large generated M3U8 (VOD, `segments` segments).
///
/// The M3U8 parser and the gateway's playlist rewriter arrive with issues 4 and 5. Until then
/// this reports the generated input and `"status":"pending"`; it never reports a figure it did
/// not measure. HOOK(issue 4): `parse(_:)` below. HOOK(issue 5): `rewrite(_:)` below.
enum PlaylistBenchmark {
    static func run(_ args: BenchArguments) -> Int32 {
        let segments = args.int("segments", default: 100_000)
        let runs = max(1, args.int("runs", default: 3))
        let text = generateMediaPlaylist(segments: segments)
        let bytes = text.utf8.count
        let path = args.string("write", default: "")
        if !path.isEmpty { try? text.write(toFile: path, atomically: true, encoding: .utf8) }
        let parse = measure(runs: runs, bytes: bytes) { try Self.parse(text) }
        let rewrite = measure(runs: runs, bytes: bytes) { try Self.rewrite(text) }
        BenchOutput.print([
            "status": .string("ok"), "segments": .int(segments), "bytes": .int(bytes),
            "parse": parse, "rewrite": rewrite,
        ])
        return 0
    }

    /// A VOD media playlist with `segments` 2 s segments, byte ranges on every tenth, a key
    /// rotation every 1000 and a discontinuity every 5000: the shapes a parser and rewriter meet.
    static func generateMediaPlaylist(segments: Int) -> String {
        var out = "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-PLAYLIST-TYPE:VOD\n"
        out += "#EXT-X-MAP:URI=\"init.mp4\"\n"
        out.reserveCapacity(segments * 80)
        for i in 0..<segments {
            if i % 1000 == 0 { out += "#EXT-X-KEY:METHOD=AES-128,URI=\"https://keys.example.com/k/\(i / 1000).key?token=abc\",IV=0x\(String(i, radix: 16))\n" }
            if i > 0 && i % 5000 == 0 { out += "#EXT-X-DISCONTINUITY\n" }
            out += "#EXTINF:2.000,segment \(i)\n"
            if i % 10 == 0 { out += "#EXT-X-BYTERANGE:1000000@\(i * 1_000_000)\n" }
            out += "https://cdn.example.com/video/720p/seg-\(i).m4s?exp=1700000000&sig=deadbeef\n"
        }
        out += "#EXT-X-ENDLIST\n"
        return out
    }

    struct Pending: Error { let reason: String }

    /// HOOK(issue 4): replace the body with the M3U8 parser, e.g. `_ = try M3U8Parser.parse(text)`,
    /// returning the number of segments it found (checked against the generated count).
    static func parse(_ text: String) throws -> Int {
        throw Pending(reason: "waiting for the M3U8 parser (issue 4)")
    }

    /// HOOK(issue 5): replace the body with the gateway's playlist rewriter, e.g.
    /// `PlaylistRewriter(base:..., proxy:...).rewrite(text).utf8.count`, returning the output size.
    static func rewrite(_ text: String) throws -> Int {
        throw Pending(reason: "waiting for the playlist rewriter (issue 5)")
    }

    private static func measure(runs: Int, bytes: Int, _ body: () throws -> Int) -> JSONValue {
        var seconds: [Double] = []
        var result = 0
        for _ in 0..<runs {
            let start = ContinuousClock.now
            do { result = try body() } catch let pending as Pending {
                return .object([("status", .string("pending")), ("reason", .string(pending.reason))])
            } catch {
                return .object([("status", .string("error")), ("error", .string("\(error)"))])
            }
            let d = ContinuousClock.now - start
            seconds.append(Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18)
        }
        let sorted = seconds.sorted()
        let median = sorted[sorted.count / 2]
        return .object([
            ("status", .string("ok")), ("result", .int(result)),
            ("seconds", .array(seconds.map { .double($0) })),
            ("mb_per_s_median", .double(Double(bytes) / 1e6 / median)),
        ])
    }
}
