import Foundation
#if canImport(ReelCore)
@testable import ReelCore
#endif

/// SubtitleFile: any bytes under any of the three names never crash or hang the parsers; every
/// cue has finite times with end > start and some text; the timeline answers in start order and
/// only with cues that cover the time asked.
enum SubtitleFuzz {
    static let names = ["a.srt", "a.vtt", "a.ass"]

    static func run(_ bytes: [UInt8]) {
        guard let first = bytes.first else { return }
        let name = names[Int(first) % names.count]
        guard case .success(let timeline) = SubtitleFile.parse(Array(bytes.dropFirst()), fileName: name) else { return }
        for cue in timeline.cues {
            if !cue.start.isFinite || !cue.end.isFinite || cue.end <= cue.start { fuzzFailure("\(name): cue \(cue.start)…\(cue.end)") }
            if cue.text.isEmpty { fuzzFailure("\(name): a cue without text") }
            if cue.markup.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\n" && $0 != "\t" && $0 != "\r" }) {
                fuzzFailure("\(name): a control character in markup \(cue.markup.debugDescription)")
            }
        }
        for cue in timeline.cues.prefix(8) {
            let t = cue.start
            let shown = timeline.cues(at: t)
            if !shown.contains(cue) { fuzzFailure("\(name): the cue at \(t) is not shown then") }
            if shown.contains(where: { $0.start > t || $0.end <= t }) { fuzzFailure("\(name): a cue shown outside its time at \(t)") }
        }
    }
}
