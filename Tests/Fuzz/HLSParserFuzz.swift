#if REEL_HAVE_HLS
import Foundation
#if canImport(ReelCore)
@testable import ReelCore
#endif

/// The HLS parser (`HLSPlaylist.parseReporting`, ReelCore), lenient paths included: variables
/// (defined, imported from a fixed table, taken from a fixed URL's query), a missing or late
/// `#EXTM3U`, no target duration. fuzz.sh defines REEL_HAVE_HLS when Sources/ReelCore has
/// HLSPlaylistRewriter.swift.
/// Properties: no crash or hang on any text; the same text parses to the same value and the same
/// problems; a media playlist never has more segments than the text has lines; every problem's
/// line is one of the text's; durations are finite.
enum HLSParserFuzz {
    static let url = URL(string: "https://cdn.example.com/v/index.m3u8?token=abc&t=1")!
    static let importable = ["cdn": "https://cdn.example.com", "q": "x=1"]

    static func run(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        let first = try? HLSPlaylist.parseReporting(text, url: url, importable: importable)
        let second = try? HLSPlaylist.parseReporting(text, url: url, importable: importable)
        if first != second { fuzzFailure("HLSPlaylist.parseReporting is not deterministic on \(text.debugDescription)") }
        if (try? HLSPlaylist.parse(text)) != (try? HLSPlaylist.parseReporting(text))?.playlist {
            fuzzFailure("parse and parseReporting disagree on \(text.debugDescription)")
        }
        guard let first else { return }
        let lines = HLSLine.split(text).count
        if let media = first.playlist.media {
            if media.segments.count > lines { fuzzFailure("\(media.segments.count) segments from \(lines) lines") }
            if media.segments.contains(where: { !$0.duration.isFinite }) { fuzzFailure("a segment with a non-finite duration") }
            if !media.targetDuration.isFinite { fuzzFailure("a non-finite target duration") }
        }
        for problem in first.problems where problem.line.map({ $0 < 1 || $0 > lines }) ?? false {
            fuzzFailure("a problem on line \(problem.line!) of \(lines): \(problem)")
        }
    }
}
#endif
