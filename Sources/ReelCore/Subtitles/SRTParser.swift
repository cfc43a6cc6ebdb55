import Foundation

/// SubRip (.srt): blocks of an optional counter, a "start --> end" line and text lines, separated
/// by blank lines. Real files break every part of that: no counters, missing blank lines (a new
/// timing line starts a new cue), "." for ",", coordinates after the end time, HTML-ish tags and
/// ASS override blocks in the text. A block without a readable timing line is skipped.
enum SRTParser {
    static func parse(_ text: String) -> [SubtitleCue] {
        var cues: [SubtitleCue] = []
        var current: (start: Double, end: Double, lines: [Substring])?
        func finish() {
            guard let c = current else { return }
            var lines = c.lines
            while let last = lines.last, last.trimmingCharacters(in: .whitespaces).isEmpty { lines.removeLast() }
            // A counter line kept by a missing blank line belongs to the next cue, not this one.
            let body = lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "\n")
            cues.append(SubtitleCue(start: c.start, end: c.end, runs: TaggedText.runs(body, entities: false, assBlocks: true)))
            current = nil
        }
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        for (n, line) in lines.enumerated() {
            if let range = SubtitleTime.range(line) {
                if var c = current, let last = c.lines.last, last.trimmingCharacters(in: .whitespaces).allSatisfy(\.isASCIIDigit),
                   !last.trimmingCharacters(in: .whitespaces).isEmpty {
                    c.lines.removeLast()  // "…text\n12\n00:01 --> …": 12 was the next counter
                    current = c
                }
                finish()
                current = (range.start, range.end, [])
            } else if current != nil {
                if line.trimmingCharacters(in: .whitespaces).isEmpty {
                    // A blank line ends the cue unless the next line is more text (rare, but
                    // seen) — a counter or timing line after it means a new cue.
                    let next = lines.dropFirst(n + 1).first { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
                    if next == nil || SubtitleTime.range(next!) != nil || next!.trimmingCharacters(in: .whitespaces).allSatisfy(\.isASCIIDigit) {
                        finish()
                    } else {
                        current?.lines.append(line)
                    }
                } else {
                    current?.lines.append(line)
                }
            }
        }
        finish()
        return cues
    }
}
