/// HTML's "consume a character reference" as WebVTT's cue text tokenizer calls it (HTML §13.2.5.72
/// onwards): `&#NNN;`, `&#xHH;` (the `;` optional, NUL, surrogates and values past U+10FFFF read as
/// U+FFFD, 0x80–0x9F as Windows-1252 says), and named references: HTML's whole table (2,231
/// names, some of two characters), the legacy ones (Latin-1, `amp`, `lt`, `gt`, `quot`…) read
/// without their `;` too, as HTML reads them in text; the longest name that matches wins.
enum HTMLCharacterReference {
    /// The reference at `chars[start]` (an `&`): its text and where reading goes on, nil when
    /// nothing is a reference there (the `&` is then text). `additionalAllowed` (WebVTT's
    /// annotation state passes `>`) is a character after `&` that makes it not a reference.
    static func consume(_ chars: [Character], at start: Int, additionalAllowed: Character? = nil) -> (text: String, next: Int)? {
        let i = start + 1
        guard i < chars.count else { return nil }
        let c = chars[i]
        if c == "\t" || c == "\n" || c == "\u{0C}" || c == " " || c == "<" || c == "&" || c == additionalAllowed { return nil }
        if c == "#" { return numeric(chars, at: i + 1) }
        // Named: the longest name in the table followed by ";", else the longest legacy name.
        var name = ""
        var j = i
        var best: (String, Int)?
        while j < chars.count, name.count < longestName, chars[j].isASCII, chars[j].isLetter || chars[j].isNumber {
            name.append(chars[j])
            j += 1
            if j < chars.count, chars[j] == ";", let value = named[name] {
                best = (value, j + 1)
            } else if let value = legacy[name] {
                best = (value, j)
            }
        }
        return best.map { (text: $0.0, next: $0.1) }
    }

    private static func numeric(_ chars: [Character], at start: Int) -> (text: String, next: Int)? {
        var i = start
        var radix = 10
        if i < chars.count, chars[i] == "x" || chars[i] == "X" {
            radix = 16
            i += 1
        }
        var value: UInt64 = 0
        var digits = 0
        while i < chars.count, let d = chars[i].hexDigitValue, radix == 16 || d < 10 {
            value = min(value * UInt64(radix) + UInt64(d), 0x110000)  // past U+10FFFF stays past it
            digits += 1
            i += 1
        }
        guard digits > 0 else { return nil }  // "&#" then nothing: not a reference
        if i < chars.count, chars[i] == ";" { i += 1 }
        return (String(Character(scalar(for: value))), i)
    }

    /// HTML's numeric character reference end state.
    static func scalar(for value: UInt64) -> Unicode.Scalar {
        if value == 0 || value > 0x10FFFF || (0xD800...0xDFFF).contains(value) { return "\u{FFFD}" }
        if let mapped = windows1252[UInt32(value)] { return Unicode.Scalar(mapped)! }
        return Unicode.Scalar(UInt32(value)) ?? "\u{FFFD}"
    }

    /// HTML's table for 0x80–0x9F (C1 controls read as Windows-1252).
    private static let windows1252: [UInt32: UInt32] = [
        0x80: 0x20AC, 0x82: 0x201A, 0x83: 0x0192, 0x84: 0x201E, 0x85: 0x2026, 0x86: 0x2020, 0x87: 0x2021, 0x88: 0x02C6,
        0x89: 0x2030, 0x8A: 0x0160, 0x8B: 0x2039, 0x8C: 0x0152, 0x8E: 0x017D, 0x91: 0x2018, 0x92: 0x2019, 0x93: 0x201C,
        0x94: 0x201D, 0x95: 0x2022, 0x96: 0x2013, 0x97: 0x2014, 0x98: 0x02DC, 0x99: 0x2122, 0x9A: 0x0161, 0x9B: 0x203A,
        0x9C: 0x0153, 0x9E: 0x017E, 0x9F: 0x0178,
    ]

    /// The names that need their `;` (stored without it) and the legacy names read without it,
    /// from WHATWG's whole table (`HTMLNamedReferences`, generated).
    static let (named, legacy): ([String: String], [String: String]) = {
        var named: [String: String] = [:], legacy: [String: String] = [:]
        named.reserveCapacity(2200)
        for entry in HTMLNamedReferences.text.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            guard let eq = entry.firstIndex(of: "=") else { continue }
            let scalars = entry[entry.index(after: eq)...].split(separator: ",").compactMap { UInt32($0, radix: 16).flatMap(Unicode.Scalar.init) }
            let value = String(String.UnicodeScalarView(scalars))
            let name = entry[..<eq]
            if name.hasSuffix(";") { named[String(name.dropLast())] = value } else { legacy[String(name)] = value }
        }
        return (named, legacy)
    }()

    /// "CounterClockwiseContourIntegral".
    private static let longestName = 31
}
