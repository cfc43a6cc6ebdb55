import Foundation

/// SubRip (.srt): blocks of an optional counter, a "start --> end" line and text lines, separated
/// by blank lines. Real files break every part of that: no counters, missing blank lines (a new
/// timing line starts a new cue), "." for ",", coordinates after the end time, HTML-ish tags and
/// ASS override blocks in the text. A block without a readable timing line is skipped.
/// Linear in the file: each line is looked at a bounded number of times.
enum SRTParser {
    static func parse(_ text: String) -> [SubtitleCue] {
        var problems: [SubtitleProblem] = []
        return parse(text, problems: &problems)
    }

    /// The cues, and what was left out (`problems`).
    static func parse(_ text: String, problems: inout [SubtitleProblem]) -> [SubtitleCue] {
        var cues: [SubtitleCue] = []
        var current: (start: Double, end: Double, lines: [Substring], id: String, settings: String)?
        var skipping = false  // in a cue whose timing line could not be read
        func finish() {
            guard let c = current else { return }
            var lines = c.lines
            while let last = lines.last, last.isBlankLine { lines.removeLast() }
            let body = lines.map { String($0.trimmingSpaces) }.joined(separator: "\n")
            var cue = SubtitleCue(start: c.start, end: c.end, runs: TaggedText.runs(body, entities: true, assBlocks: true))
            cue.identifier = c.id
            cue.settings = c.settings
            cues.append(cue)
            current = nil
        }
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        // For each line, the index of the next line that is not blank (lines.count for none):
        // one pass from the end, so that a run of blank lines is not searched again at each one.
        var nextText = [Int](repeating: lines.count, count: lines.count + 1)
        for n in lines.indices.reversed() {
            nextText[n] = lines[n].isBlankLine ? nextText[n + 1] : n
        }
        func isCounter(_ line: Substring) -> Bool {
            let t = line.trimmingSpaces
            return !t.isEmpty && t.allSatisfy(\.isASCIIDigit)
        }
        for (n, line) in lines.enumerated() {
            if let range = SubtitleTime.range(line) {
                if var c = current, let last = c.lines.last, isCounter(last) {
                    c.lines.removeLast()  // "…text\n12\n00:01 --> …": 12 was the next counter
                    current = c
                }
                finish()
                skipping = false
                if range.end < range.start {
                    problems.append(.backwards(n + 1))
                    skipping = true
                } else {
                    let id = n > 0 && isCounter(lines[n - 1]) ? String(lines[n - 1].trimmingSpaces) : ""
                    current = (range.start, range.end, [], id, String(SubtitleTime.settings(line)))
                }
            } else if SubtitleTime.arrow(in: line) != nil {
                finish()
                problems.append(.timing(n + 1, line))
                skipping = true
            } else if skipping {
                if line.isBlankLine { skipping = false }
            } else if current != nil {
                if line.isBlankLine {
                    // A blank line ends the cue unless the next line is more text (rare, but
                    // seen) — a counter or timing line after it means a new cue.
                    let next = nextText[n + 1]
                    if next == lines.count || SubtitleTime.range(lines[next]) != nil || isCounter(lines[next]) {
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
