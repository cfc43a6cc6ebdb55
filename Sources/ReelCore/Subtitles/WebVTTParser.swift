import Foundation

/// WebVTT (.vtt, W3C WebVTT §4): a "WEBVTT" header, then blocks separated by blank lines — cues
/// (an optional identifier, "start --> end [settings]", text up to a blank line), NOTE, STYLE and
/// REGION blocks (skipped). Cue text carries tags (`<i>`, `<c.yellow>`, `<v Joe>`, timestamps)
/// and character references. A file without the header is still read (players accept it).
enum WebVTTParser {
    static func parse(_ text: String) -> [SubtitleCue] {
        var cues: [SubtitleCue] = []
        var blocks: [[Substring]] = [[]]
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            if line.isBlankLine {
                if !(blocks.last?.isEmpty ?? true) { blocks.append([]) }
            } else {
                blocks[blocks.count - 1].append(line)
            }
        }
        for (n, var block) in blocks.enumerated() where !block.isEmpty {
            let first = block[0].trimmingSpaces
            if n == 0, first.hasPrefix("WEBVTT") {
                // The header block ends at the first blank line; a file whose first cue's timing
                // line follows the header's lines directly (GStreamer's own WebVTT tests, some
                // encoders) has that cue there: it starts at the first line with "-->".
                guard let timing = block.firstIndex(where: { SubtitleTime.arrow(in: $0) != nil }) else { continue }
                block = Array(block[timing...])
            } else if first.hasPrefix("WEBVTT") || first.hasPrefix("NOTE") || first == "STYLE" || first == "REGION" {
                continue
            }
            // The timing line is the first or (after an identifier) the second.
            guard let timing = block.prefix(2).firstIndex(where: { SubtitleTime.arrow(in: $0) != nil }),
                  let range = SubtitleTime.range(block[timing]) else { continue }
            let body = block[(timing + 1)...].joined(separator: "\n")
            cues.append(SubtitleCue(start: range.start, end: range.end, runs: TaggedText.runs(body, entities: true, assBlocks: false),
                                    placement: SubtitlePlacement(webVTTSettings: SubtitleTime.settings(block[timing]))))
        }
        return cues
    }
}
