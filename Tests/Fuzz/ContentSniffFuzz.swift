import Foundation
#if canImport(ReelCore)
@testable import ReelCore
#endif

/// Issue 56: what a resource is, by its first bytes, under any name (`ContentSniff`): any bytes,
/// alone and behind the heads a CDN serves (an XML declaration, a BOM, an HLS header, an HTML
/// doctype). Properties: no trap or hang; only the first 4 KiB decide; an MPD root after any
/// prolog Reel skips is a DASH manifest, whatever follows; an HLS header with an EXT-X- tag is
/// a playlist; the guard's error message carries the kind back (`ErrorMapper`).
enum ContentSniffFuzz {
    static func run(_ bytes: [UInt8]) {
        let alone = ContentSniff.kind(of: bytes)
        if bytes.count > ContentSniff.headBytes, ContentSniff.kind(of: bytes.prefix(ContentSniff.headBytes)) != alone {
            fuzzFailure("bytes past the head changed the verdict")
        }
        let tail = Array(bytes.prefix(2048))
        let prologs = ["", "\u{FEFF}", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", "<!-- packager -->\n", "  \r\n"]
        let prolog = prologs[Int(bytes.first ?? 0) % prologs.count]
        let mpd = Array((prolog + "<MPD ").utf8) + tail
        if ContentSniff.kind(of: mpd) != .dashManifest { fuzzFailure("an MPD root after \(prolog.debugDescription) was not a manifest") }
        let prefixed = Array((prolog + "<dash:MPD>").utf8) + tail
        if ContentSniff.kind(of: prefixed) != .dashManifest { fuzzFailure("a prefixed MPD root was not a manifest") }
        let hls = Array("#EXTM3U\n#EXT-X-VERSION:3\n".utf8) + tail
        if ContentSniff.kind(of: hls) != .hlsPlaylist { fuzzFailure("an HLS header was not a playlist") }
        if let kind = alone {
            let error = ErrorMapper.map(domain: "gst-stream-error-quark", code: 5, message: "reel-content-guard: \(kind.rawValue)", debug: nil, context: .init(uri: nil))
            if error.refusedContent != kind { fuzzFailure("the guard's message lost its kind") }
        }
    }
}
