#if REEL_HAVE_PLAYLIST_PARSER
import Foundation
#if canImport(ReelCore)
@testable import ReelCore
#endif

/// The queue lane's playlist parsers (issue 4): M3U, PLS, XSPF and the format detection in front
/// of them. fuzz.sh defines REEL_HAVE_PLAYLIST_PARSER when Sources/ReelCore has PlaylistParser.
/// Properties: no crash or hang on any bytes; the documented bounds hold (≤ 100 000 entries,
/// ≤ 200 diagnostics); a network playlist never yields a local file entry; what the writer
/// writes reads back to the same entries.
enum PlaylistFuzz {
    static let locations = [
        URL(string: "https://example.com/lists/a.m3u")!, URL(string: "https://example.com/lists/a.m3u8")!,
        URL(string: "https://example.com/lists/a.pls")!, URL(string: "https://example.com/lists/a.xspf")!,
        URL(fileURLWithPath: "/home/u/lists/a.m3u"), URL(fileURLWithPath: "/home/u/lists/a.xspf"),
    ]

    static func run(_ bytes: [UInt8]) {
        guard let first = bytes.first else { return }
        let location = locations[Int(first) % locations.count]
        check(PlaylistParser.parse(Data(bytes.dropFirst()), location: location), location: location, bytes: bytes)
    }

    static func runM3U(_ bytes: [UInt8]) { direct(bytes, ext: "m3u") { M3UParser.parse(text: $0, location: $1) } }
    static func runPLS(_ bytes: [UInt8]) { direct(bytes, ext: "pls") { PLSParser.parse(text: $0, location: $1) } }
    static func runXSPF(_ bytes: [UInt8]) { direct(bytes, ext: "xspf") { XSPFParser.parse(text: $0, location: $1) } }

    private static func direct(_ bytes: [UInt8], ext: String, _ parse: (String, URL) -> PlaylistParseResult) {
        let location = URL(string: "https://example.com/lists/a.\(ext)")!
        check(parse(String(decoding: bytes, as: UTF8.self), location), location: location, bytes: bytes)
    }

    private static func check(_ result: PlaylistParseResult, location: URL, bytes: [UInt8]) {
        if result.items.count > 100_000 { fuzzFailure("\(result.items.count) entries") }
        if result.diagnostics.count > 200 { fuzzFailure("\(result.diagnostics.count) diagnostics") }
        if !location.isFileURL, let local = result.items.first(where: { $0.uri.lowercased().hasPrefix("file:") }) {
            fuzzFailure("a network playlist gave a local entry \(local.uri.debugDescription)")
        }
        guard result.format != .hls, !result.items.isEmpty else { return }
        let written = PlaylistWriter.write(result.items, format: .m3u8)
        // Read back from beside the original (a network playlist may not name local files).
        let again = PlaylistParser.parse(Data(written.utf8), location: location.deletingLastPathComponent().appendingPathComponent("out.m3u8"))
        // A trailing slash is compared away: a media item is never a directory, and a file URI
        // written with one can read back without it (a known, harmless difference).
        func canonical(_ uris: [String]) -> [String] { uris.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 } }
        if again.format != .hls && canonical(again.items.map(\.uri)) != canonical(result.items.map(\.uri)) {
            fuzzFailure("written M3U8 did not read back: \(result.items.map(\.uri)) -> \(again.items.map(\.uri)); written: \(written.debugDescription)")
        }
    }
}
#endif
