import Foundation

/// Turns playlist bytes into text and lines, within bounds: UTF-8 with or without a BOM,
/// UTF-16 with a BOM, Latin-1 (Windows-1252) for legacy files that are not UTF-8; LF, CRLF and CR line ends.
/// Binary data is refused rather than parsed.
enum PlaylistText {
    /// Larger playlists are refused (a 16 MiB M3U is some 200 000 entries).
    static let maxBytes = 16 << 20
    /// Longer lines are skipped with a diagnostic (signed URLs stay well under this).
    static let maxLineBytes = 64 << 10
    /// More entries than this are dropped with one diagnostic.
    static let maxEntries = 100_000
    /// More diagnostics than this are summarised in one.
    static let maxDiagnostics = 200

    struct Decoded {
        var text: String
        var diagnostics: [PlaylistDiagnostic] = []
    }

    /// Decodes `data`. Fails (fatal) on binary data or an oversized file.
    static func decode(_ data: Data, expectUTF8: Bool) -> Result<Decoded, PlaylistDiagnostic> {
        if data.count > maxBytes {
            return .failure(PlaylistDiagnostic(line: nil, message: String(format: tr("the file is larger than %@ MiB; not read"), "\(maxBytes >> 20)"), severity: .fatal))
        }
        let bytes = [UInt8](data)
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            let encoding: String.Encoding = bytes[0] == 0xFF ? .utf16LittleEndian : .utf16BigEndian
            guard let text = String(data: Data(bytes.dropFirst(2)), encoding: encoding) else {
                return .failure(PlaylistDiagnostic(line: nil, message: tr("the file starts with a UTF-16 byte order mark but is not UTF-16 text"), severity: .fatal))
            }
            return checkBinary(Decoded(text: text), replacementIsBinary: false)
        }
        var body = bytes[...]
        let hadBOM = bytes.starts(with: [0xEF, 0xBB, 0xBF])
        if hadBOM { body = body.dropFirst(3) }
        if let nul = body.firstIndex(of: 0) {
            let line = 1 + body[..<nul].lazy.filter { $0 == 0x0A }.count
            return .failure(PlaylistDiagnostic(line: line, message: tr("binary data (a NUL byte): this is not a text playlist"), severity: .fatal))
        }
        if let text = String(validating: body, as: UTF8.self) {
            // Valid UTF-8: a U+FFFD in it was written on purpose (e.g. by PlaylistWriter, saving a
            // title that was read with replacement characters); it is text, not a sign of binary.
            return checkBinary(Decoded(text: text), replacementIsBinary: false)
        }
        if hadBOM {
            let text = String(decoding: body, as: UTF8.self)
            return checkBinary(Decoded(text: text, diagnostics: [PlaylistDiagnostic(line: firstInvalidUTF8Line(body), message: tr("invalid UTF-8 after a UTF-8 byte order mark; bad bytes replaced"))]), replacementIsBinary: true)
        }
        // Legacy M3U/PLS: Windows-1252, the Latin-1 superset such files are written in (every
        // byte is a character, so this cannot fail). 0x80–0x9F are its punctuation (‘ ’ “ ” – …),
        // not C1 controls: a title with smart quotes is text, not binary, and saves back as text.
        var scalars = String.UnicodeScalarView()
        for byte in body {
            if (0x80...0x9F).contains(byte), let mapped = Unicode.Scalar(windows1252High[Int(byte - 0x80)]) {
                scalars.append(mapped)
            } else {
                scalars.append(Unicode.Scalar(byte))
            }
        }
        let text = String(scalars)
        var decoded = Decoded(text: text)
        if expectUTF8 {
            decoded.diagnostics.append(PlaylistDiagnostic(line: firstInvalidUTF8Line(body), message: tr("not valid UTF-8; read as Latin-1 (Windows-1252)")))
        }
        return checkBinary(decoded, replacementIsBinary: true)
    }

    /// Windows-1252 for bytes 0x80–0x9F; the five it leaves undefined stay C1 code points.
    private static let windows1252High: [UInt32] = [
        0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
        0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
    ]

    /// Refuses text that is mostly control characters (a binary file without NUL bytes).
    /// `replacementIsBinary`: whether U+FFFD counts, i.e. whether the decoder put it there.
    private static func checkBinary(_ decoded: Decoded, replacementIsBinary: Bool) -> Result<Decoded, PlaylistDiagnostic> {
        var controls = 0, total = 0
        for s in decoded.text.unicodeScalars.prefix(65_536) {
            total += 1
            let v = s.value
            if v < 0x20 && s != "\n" && s != "\r" && s != "\t" || (0x7F...0x9F).contains(v) || (replacementIsBinary && v == 0xFFFD) { controls += 1 }
        }
        // More than 10 % control characters (C0, DEL, C1, replacement) is not text. A few stray
        // ones are left to the per-line check, which skips just those lines.
        if controls > 8 && controls * 10 > total {
            return .failure(PlaylistDiagnostic(line: nil, message: tr("mostly binary data: this is not a text playlist"), severity: .fatal))
        }
        return .success(decoded)
    }

    private static func firstInvalidUTF8Line(_ body: ArraySlice<UInt8>) -> Int {
        var line = 1
        var start = body.startIndex
        for i in body.indices where body[i] == 0x0A {
            if String(validating: body[start..<i], as: UTF8.self) == nil { return line }
            line += 1
            start = i + 1
        }
        return line
    }

    /// The lines of `text` with their 1-based numbers, split at LF, CRLF or CR. Empty lines are
    /// kept (numbering stays right). `tooLong` lines come back empty and flagged.
    static func lines(_ text: String) -> Lines { Lines(text: text) }

    /// The lines of a text, read as they are asked for (a big list's first entries are parsed
    /// without splitting the rest): number (from 1), text, and whether it was too long (then
    /// its text is empty). CR, LF and CRLF end a line.
    struct Lines: Sequence, IteratorProtocol {
        let text: String
        private var i: String.Index
        private var number = 1

        init(text: String) {
            self.text = text
            i = text.utf8.startIndex
        }

        mutating func next() -> (number: Int, text: Substring, tooLong: Bool)? {
            let utf8 = text.utf8
            guard i != utf8.endIndex else { return nil }
            let start = i
            var end = i
            while end != utf8.endIndex, utf8[end] != 0x0A, utf8[end] != 0x0D { end = utf8.index(after: end) }
            if end != utf8.endIndex {
                let b = utf8[end]
                i = utf8.index(after: end)
                if b == 0x0D, i != utf8.endIndex, utf8[i] == 0x0A { i = utf8.index(after: i) }
            } else {
                i = end
            }
            defer { number += 1 }
            if utf8.distance(from: start, to: end) > maxLineBytes { return (number, text[start..<start], true) }
            return (number, text[start..<end], false)
        }
    }

    /// True when a line holds control characters other than tab (binary junk in a text file).
    static func hasControlCharacters(_ line: Substring) -> Bool {
        line.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F }
    }
}
