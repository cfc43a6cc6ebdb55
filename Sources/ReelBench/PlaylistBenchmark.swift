import Foundation
import ReelCore

/// Playlist parse and rewrite throughput on a large generated M3U8 (VOD, `segments` segments):
/// `HLSPlaylist.parse` and `HLSPlaylistRewriter` with a gateway-like mapping. Also the queue's
/// playlist readers (`PlaylistParser` on M3U, PLS and XSPF with `entries` entries), bytes in.
enum PlaylistBenchmark {
    static func run(_ args: BenchArguments) -> Int32 {
        let segments = args.int("segments", default: 100_000)
        let entries = args.int("entries", default: 20_000)
        let runs = max(1, args.int("runs", default: 3))
        let text = generateMediaPlaylist(segments: segments)
        let bytes = text.utf8.count
        let path = args.string("write", default: "")
        if !path.isEmpty { try? text.write(toFile: path, atomically: true, encoding: .utf8) }
        let parse = measure(runs: runs, bytes: bytes) { try Self.parse(text, expecting: segments) }
        let rewrite = measure(runs: runs, bytes: bytes) { try Self.rewrite(text) }
        var lists: [(String, JSONValue)] = []
        for format in ["m3u", "pls", "xspf"] {
            let data = Data(generateQueuePlaylist(format: format, entries: entries).utf8)
            let result = measure(runs: runs, bytes: data.count) { try Self.parseQueuePlaylist(data, format: format, expecting: entries) }
            lists.append((format, .object([("bytes", .int(data.count)), ("entries", .int(entries)), ("result", result)])))
        }
        BenchOutput.print([
            "status": .string("ok"), "segments": .int(segments), "bytes": .int(bytes),
            "parse": parse, "rewrite": rewrite, "lists": .object(lists),
        ])
        return 0
    }

    /// A queue playlist with `entries` entries (titles, durations, relative and absolute paths).
    static func generateQueuePlaylist(format: String, entries: Int) -> String {
        var out = ""
        out.reserveCapacity(entries * 120)
        switch format {
        case "m3u":
            out += "#EXTM3U\n"
            for i in 0..<entries { out += "#EXTINF:\(180 + i % 120),Artist \(i % 97) - Track \(i)\nmusic/album \(i / 12)/track-\(i).mp3\n" }
        case "pls":
            out += "[playlist]\n"
            for i in 1...entries { out += "File\(i)=music/album \(i / 12)/track-\(i).mp3\nTitle\(i)=Artist \(i % 97) - Track \(i)\nLength\(i)=\(180 + i % 120)\n" }
            out += "NumberOfEntries=\(entries)\nVersion=2\n"
        default:
            out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<playlist version=\"1\" xmlns=\"http://xspf.org/ns/0/\">\n  <trackList>\n"
            for i in 0..<entries {
                out += "    <track><location>music/album%20\(i / 12)/track-\(i).mp3</location><title>Artist \(i % 97) &amp; Track \(i)</title><duration>\((180 + i % 120) * 1000)</duration></track>\n"
            }
            out += "  </trackList>\n</playlist>\n"
        }
        return out
    }

    static func parseQueuePlaylist(_ data: Data, format: String, expecting: Int) throws -> Int {
        let result = PlaylistParser.parse(data, location: URL(fileURLWithPath: "/home/u/lists/bench.\(format)"))
        guard result.items.count == expecting else {
            throw Failed(reason: "\(format): \(result.items.count) entries, expected \(expecting); \(result.diagnostics.prefix(3))")
        }
        return result.items.count
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

    struct Failed: Error { let reason: String }

    /// `HLSPlaylist.parse`: the number of segments found (checked against the generated count).
    static func parse(_ text: String, expecting: Int) throws -> Int {
        let playlist: HLSPlaylist
        do { playlist = try HLSPlaylist.parse(text) } catch { throw Failed(reason: "HLSPlaylist.parse: \(error)") }
        guard let media = playlist.media, media.segments.count == expecting else {
            throw Failed(reason: "HLSPlaylist.parse found \(playlist.media?.segments.count ?? 0) segments, expected \(expecting)")
        }
        return media.segments.count
    }

    /// `HLSPlaylistRewriter` as the gateway uses it: every URI resolved against the playlist's
    /// URL and mapped to a loopback URL (the gateway's registry lookup is not included). Returns
    /// the output size; every segment must have been rewritten.
    static func rewrite(_ text: String) throws -> Int {
        let rewriter = HLSPlaylistRewriter(baseURL: URL(string: "https://cdn.example.com/video/720p/index.m3u8")) { kind, url in
            "http://127.0.0.1:40000/g/1/\(kind)/" + url.lastPathComponent
        }
        let output = rewriter.rewrite(text)
        guard output.references.count > 0, !output.text.contains("https://cdn.example.com/video/") else {
            throw Failed(reason: "the rewriter left upstream URIs in the playlist")
        }
        return output.text.utf8.count
    }

    static func measure(runs: Int, bytes: Int, _ body: () throws -> Int) -> JSONValue {
        var seconds: [Double] = []
        var result = 0
        for _ in 0..<runs {
            let start = ContinuousClock.now
            do { result = try body() } catch let failed as Failed {
                return .object([("status", .string("error")), ("error", .string(failed.reason))])
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
