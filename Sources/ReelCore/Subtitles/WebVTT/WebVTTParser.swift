/// WebVTT files by the W3C "WebVTT parser algorithm" (WebVTT: The Web Video Text Tracks Format,
/// §6.1, step numbers in the comments): the file signature, the header, then blocks — cues
/// (an optional identifier, timings and settings, text up to a blank line or up to the next line
/// with "-->"), STYLE and REGION blocks before the first cue, NOTE and anything else skipped.
/// Timestamps by "collect a WebVTT timestamp", settings by `WebVTTCueSettings`, cue text by
/// `WebVTTCueText`. What the algorithm drops is reported as a `SubtitleProblem` with its line.
enum WebVTTParser {
    static func parse(_ text: String) -> [SubtitleCue] {
        var problems: [SubtitleProblem] = []
        return parse(text, problems: &problems)
    }

    /// A cue as the algorithm collects it, before its text is parsed.
    struct CollectedCue {
        var identifier: String
        var start: Double
        var end: Double
        var settingsText: String
        var settings: WebVTTCueSettings
        var text: String
        var timingLine: Int
    }

    /// The cues, and what was left out (`problems`).
    static func parse(_ text: String, problems: inout [SubtitleProblem]) -> [SubtitleCue] {
        var reader = Reader(text)
        var cues: [SubtitleCue] = []
        for cue in reader.collect(problems: &problems) {
            guard cue.end >= cue.start else {
                problems.append(.backwards(cue.timingLine))
                continue
            }
            let settings = cue.settings
            var parsed = SubtitleCue(start: cue.start, end: cue.end, runs: WebVTTCueText.runs(WebVTTCueText.parse(cue.text)),
                                     placement: SubtitlePlacement(webVTT: settings))
            parsed.identifier = cue.identifier
            parsed.settings = cue.settingsText
            cues.append(parsed)
        }
        return cues
    }

    /// The algorithm's state: the input, the position, and what has been seen.
    struct Reader {
        let input: [Character]
        var position = 0
        var seenCue = false
        var regions: [String] = []
        /// Where each line starts (for problems' line numbers).
        private let lineStarts: [Int]

        init(_ text: String) {
            // Step 1: NUL → U+FFFD, CRLF and lone CR → LF (a byte-order mark is the decoder's).
            var scalars = String.UnicodeScalarView()
            var afterCR = false
            for u in text.unicodeScalars {
                defer { afterCR = u == "\r" }
                if u == "\n", afterCR { continue }
                scalars.append(u == "\r" ? "\n" : u == "\0" ? "\u{FFFD}" : u)
            }
            var chars = Array(String(scalars))
            if chars.first == "\u{FEFF}" { chars.removeFirst() }
            input = chars
            lineStarts = [0] + chars.indices.filter { chars[$0] == "\n" }.map { $0 + 1 }
        }

        func line(at index: Int) -> Int {
            var low = 0, high = lineStarts.count
            while low < high {
                let mid = (low + high) / 2
                if lineStarts[mid] <= index { low = mid + 1 } else { high = mid }
            }
            return low
        }

        mutating func collectLine() -> String {
            var line = ""
            while position < input.count, input[position] != "\n" {
                line.append(input[position])
                position += 1
            }
            return line
        }

        mutating func skipLineFeeds() {
            while position < input.count, input[position] == "\n" { position += 1 }
        }

        /// Steps 2–15: the cues of the file.
        mutating func collect(problems: inout [SubtitleProblem]) -> [CollectedCue] {
            // Steps 4–6: the signature, "WEBVTT" then a space, a tab, a line feed or the end.
            let signature = Array("WEBVTT")
            guard input.count >= 6, Array(input.prefix(6)) == signature, input.count == 6 || [" ", "\t", "\n"].contains(input[6]) else {
                problems.append(SubtitleProblem(line: 1, code: .noSignature,
                                                message: "the file does not start with “WEBVTT” (WebVTT §6.1, step 4–6); nothing in it is read as WebVTT"))
                return []
            }
            // Steps 7–10: the rest of the signature's line.
            _ = collectLine()
            guard position < input.count else { return [] }
            position += 1
            guard position < input.count else { return [] }
            // Step 11: the header (its lines are not cues; a line with "-->" ends it).
            if input[position] != "\n" {
                _ = collectBlock(inHeader: true, problems: &problems)
            } else {
                position += 1
            }
            // Step 12.
            skipLineFeeds()
            // Step 14: block loop.
            var cues: [CollectedCue] = []
            while position < input.count {
                if let cue = collectBlock(inHeader: false, problems: &problems) { cues.append(cue) }
                skipLineFeeds()
            }
            return cues
        }

        /// "Collect a WebVTT block": a cue, or nil (a style sheet, a region — its identifier is
        /// kept —, a note, the header, or what is not a cue, reported).
        mutating func collectBlock(inHeader: Bool, problems: inout [SubtitleProblem]) -> CollectedCue? {
            let firstLine = line(at: position)
            var lineCount = 0
            var previousPosition = position
            var buffer = ""
            var seenEOF = false
            var seenArrow = false
            var cue: CollectedCue?
            var stylesheet = false
            var region = false
            var unreadableTiming: (Int, String)?
            while true {
                // Loop steps 1–3.
                let lineStart = position
                let line = collectLine()
                lineCount += 1
                if position >= input.count { seenEOF = true } else { position += 1 }
                if line.contains("-->") {
                    // Step 4: a timing line, first or second in a block (not in the header).
                    if !inHeader, lineCount == 1 || (lineCount == 2 && !seenArrow) {
                        seenArrow = true
                        previousPosition = position
                        if let (start, end, settingsText) = Self.timings(line) {
                            cue = CollectedCue(identifier: buffer, start: start, end: end, settingsText: settingsText,
                                               settings: WebVTTCueSettings(parsing: Substring(settingsText), regions: regions),
                                               text: "", timingLine: self.line(at: lineStart))
                            buffer = ""
                            seenCue = true
                        } else {
                            cue = nil
                            unreadableTiming = (self.line(at: lineStart), line)
                        }
                    } else {
                        // Another line with "-->" ends this block; it starts the next.
                        position = previousPosition
                        break
                    }
                } else if line.isEmpty {
                    // Step 5.
                    break
                } else {
                    // Step 6: STYLE and REGION blocks (before the first cue), or text.
                    if !inHeader, lineCount == 2, !seenCue {
                        if buffer.hasPrefix("STYLE"), buffer.dropFirst(5).allSatisfy(\.isHTMLSpace) {
                            stylesheet = true
                            buffer = ""
                        } else if buffer.hasPrefix("REGION"), buffer.dropFirst(6).allSatisfy(\.isHTMLSpace) {
                            region = true
                            buffer = ""
                        }
                    }
                    if !buffer.isEmpty { buffer.append("\n") }
                    buffer += line
                    previousPosition = position
                }
                if seenEOF { break }
            }
            // Steps 11–14.
            if var cue {
                cue.text = buffer
                return cue
            }
            if stylesheet { return nil }  // style sheets: Reel draws with its own style
            if region {
                if let id = Self.regionIdentifier(buffer) { regions.append(id) }
                return nil
            }
            guard !inHeader else { return nil }
            if let (line, text) = unreadableTiming {
                problems.append(.timing(line, Substring(text)))
            } else if !Self.isNote(buffer), !buffer.isEmpty {
                let what = buffer.hasPrefix("STYLE") || buffer.hasPrefix("REGION")
                    ? "a \(buffer.hasPrefix("STYLE") ? "STYLE" : "REGION") block after the first cue is not read (WebVTT §6.1)"
                    : "a block without a timing line (“\(buffer.prefix(40))”) is left out"
                problems.append(SubtitleProblem(line: firstLine, code: .notACue, message: what))
            }
            return nil
        }

        /// A NOTE block: "NOTE" alone or followed by a space, a tab or a line feed.
        static func isNote(_ buffer: String) -> Bool {
            guard buffer.hasPrefix("NOTE") else { return false }
            let rest = buffer.dropFirst(4)
            return rest.isEmpty || rest.first == " " || rest.first == "\t" || rest.first == "\n"
        }

        /// "Collect WebVTT cue timings and settings": start, end and what follows.
        static func timings(_ line: String) -> (Double, Double, String)? {
            let chars = Array(line)
            var position = 0
            func skipWhitespace() { while position < chars.count, chars[position].isHTMLSpace { position += 1 } }
            skipWhitespace()
            guard let start = WebVTTTimestamp.collect(chars, &position) else { return nil }
            skipWhitespace()
            for expected: Character in ["-", "-", ">"] {
                guard position < chars.count, chars[position] == expected else { return nil }
                position += 1
            }
            skipWhitespace()
            guard let end = WebVTTTimestamp.collect(chars, &position) else { return nil }
            let remainder = String(chars[position...]).trimmingSpaces
            return (start, end, String(remainder))
        }

        /// The `id:` of a REGION block's settings.
        static func regionIdentifier(_ buffer: String) -> String? {
            for setting in buffer.split(whereSeparator: \.isHTMLSpace) where setting.hasPrefix("id:") {
                let value = setting.dropFirst(3)
                if !value.isEmpty, !value.contains("-->") { return String(value) }
            }
            return nil
        }
    }
}

extension Character {
    /// ASCII whitespace as HTML counts it: tab, line feed, form feed, carriage return, space.
    var isHTMLSpace: Bool { self == " " || self == "\t" || self == "\n" || self == "\u{0C}" || self == "\r" }
}
