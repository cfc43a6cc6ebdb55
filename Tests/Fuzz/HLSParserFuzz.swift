#if REEL_HAVE_HLS
import Foundation

/// The gateway lane's HLS parser (`HLSPlaylist.parse`, ReelCore). fuzz.sh defines REEL_HAVE_HLS
/// when Sources/ReelCore has HLSPlaylistRewriter.swift.
/// Properties: no crash or hang on any text; the same text parses to the same value; a media
/// playlist never has more segments than the text has lines.
enum HLSParserFuzz {
    static func run(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        let first = try? HLSPlaylist.parse(text)
        let second = try? HLSPlaylist.parse(text)
        if first != second { fuzzFailure("HLSPlaylist.parse is not deterministic on \(text.debugDescription)") }
        if let media = first?.media {
            let lines = HLSLine.split(text).count
            if media.segments.count > lines { fuzzFailure("\(media.segments.count) segments from \(lines) lines") }
            if media.segments.contains(where: { !$0.duration.isFinite }) { fuzzFailure("a segment with a non-finite duration") }
        }
    }
}
#endif
