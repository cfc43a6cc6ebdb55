import Foundation

/// WebVTT (.vtt, W3C WebVTT §4): a "WEBVTT" header, then blocks separated by blank lines — cues
/// (an optional identifier, "start --> end [settings]", text up to a blank line), NOTE, STYLE and
/// REGION blocks (skipped). Cue text carries tags (`<i>`, `<c.yellow>`, `<v Joe>`, timestamps)
/// and character references. A file without the header is still read (players accept it).
enum WebVTTParser {
    static func parse(_ text: String) -> [SubtitleCue] {
        var problems: [SubtitleProblem] = []
        return parse(text, problems: &problems)
    }

    /// The cues, and what was left out (`problems`).
    static func parse(_ text: String, problems: inout [SubtitleProblem]) -> [SubtitleCue] {
        var cues: [SubtitleCue] = []
        var blocks: [[Substring]] = [[]]
        var firstLines: [Int] = [1]  // each block's first line (1-based)
        for (n, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            if line.isBlankLine {
                if !(blocks.last?.isEmpty ?? true) {
                    blocks.append([])
                    firstLines.append(n + 2)
                } else {
                    firstLines[firstLines.count - 1] = n + 2
                }
            } else {
                blocks[blocks.count - 1].append(line)
            }
        }
        for (n, var block) in blocks.enumerated() where !block.isEmpty {
            var firstLine = firstLines[n]
            let first = block[0].trimmingSpaces
            if n == 0, first.hasPrefix("WEBVTT") {
                // The header block ends at the first blank line; a file whose first cue's timing
                // line follows the header's lines directly (GStreamer's own WebVTT tests, some
                // encoders) has that cue there: it starts at the first line with "-->".
                guard let timing = block.firstIndex(where: { SubtitleTime.arrow(in: $0) != nil }) else { continue }
                block = Array(block[timing...])
                firstLine += timing
            } else if first.hasPrefix("WEBVTT") || first.hasPrefix("NOTE") || first == "STYLE" || first == "REGION" {
                continue
            }
            // The timing line is the first or (after an identifier) the second.
            guard let timing = block.prefix(2).firstIndex(where: { SubtitleTime.arrow(in: $0) != nil }) else {
                problems.append(SubtitleProblem(line: firstLine, code: .notACue,
                                                message: "a block without a timing line (“\(first.prefix(40))”) is left out"))
                continue
            }
            guard let range = SubtitleTime.range(block[timing]) else {
                problems.append(.timing(firstLine + timing, block[timing]))
                continue
            }
            guard range.end >= range.start else {
                problems.append(.backwards(firstLine + timing))
                continue
            }
            let body = block[(timing + 1)...].joined(separator: "\n")
            cues.append(SubtitleCue(start: range.start, end: range.end, runs: TaggedText.runs(body, entities: true, assBlocks: false),
                                    placement: SubtitlePlacement(webVTTSettings: SubtitleTime.settings(block[timing]))))
        }
        return cues
    }
}
