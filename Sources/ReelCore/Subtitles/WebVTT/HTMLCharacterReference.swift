/// HTML's "consume a character reference" as WebVTT's cue text tokenizer calls it (HTML §13.2.5.72
/// onwards): `&#NNN;`, `&#xHH;` (the `;` optional, NUL, surrogates and values past U+10FFFF read as
/// U+FFFD, 0x80–0x9F as Windows-1252 says), and named references. The named table is HTML 4's
/// (Latin-1, symbols, Greek, punctuation: what subtitle files use), not HTML 5's 2,231 names;
/// the legacy names (Latin-1, `amp`, `lt`, `gt`, `quot`) are read without their `;` too, as HTML
/// reads them in text.
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
            if let value = named[name] {
                if j < chars.count, chars[j] == ";" { best = (value, j + 1) } else if legacy.contains(name) { best = (value, j) }
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

    /// HTML 4's Latin-1 names, U+00A0 onwards in order (HTML reads these without `;` too).
    private static let latin1 = """
    nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 sup3 acute micro \
    para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave Aacute Acirc Atilde Auml Aring AElig Ccedil \
    Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve Oacute Ocirc Otilde Ouml times Oslash Ugrave \
    Uacute Ucirc Uuml Yacute THORN szlig agrave aacute acirc atilde auml aring aelig ccedil egrave eacute ecirc euml \
    igrave iacute icirc iuml eth ntilde ograve oacute ocirc otilde ouml divide oslash ugrave uacute ucirc uuml yacute \
    thorn yuml
    """.split(separator: " ").map(String.init)

    /// HTML 4's other names: special characters, symbols, Greek.
    private static let others: [String: UInt32] = [
        "quot": 0x22, "amp": 0x26, "apos": 0x27, "lt": 0x3C, "gt": 0x3E, "OElig": 0x152, "oelig": 0x153, "Scaron": 0x160,
        "scaron": 0x161, "Yuml": 0x178, "fnof": 0x192, "circ": 0x2C6, "tilde": 0x2DC, "ensp": 0x2002, "emsp": 0x2003,
        "thinsp": 0x2009, "zwnj": 0x200C, "zwj": 0x200D, "lrm": 0x200E, "rlm": 0x200F, "ndash": 0x2013, "mdash": 0x2014,
        "lsquo": 0x2018, "rsquo": 0x2019, "sbquo": 0x201A, "ldquo": 0x201C, "rdquo": 0x201D, "bdquo": 0x201E,
        "dagger": 0x2020, "Dagger": 0x2021, "bull": 0x2022, "hellip": 0x2026, "permil": 0x2030, "prime": 0x2032,
        "Prime": 0x2033, "lsaquo": 0x2039, "rsaquo": 0x203A, "oline": 0x203E, "frasl": 0x2044, "euro": 0x20AC,
        "trade": 0x2122, "larr": 0x2190, "uarr": 0x2191, "rarr": 0x2192, "darr": 0x2193, "harr": 0x2194, "minus": 0x2212,
        "infin": 0x221E, "ne": 0x2260, "le": 0x2264, "ge": 0x2265, "asymp": 0x2248, "loz": 0x25CA, "spades": 0x2660,
        "clubs": 0x2663, "hearts": 0x2665, "diams": 0x2666, "sum": 0x2211, "prod": 0x220F, "radic": 0x221A,
        "Alpha": 0x391, "Beta": 0x392, "Gamma": 0x393, "Delta": 0x394, "Epsilon": 0x395, "Zeta": 0x396, "Eta": 0x397,
        "Theta": 0x398, "Iota": 0x399, "Kappa": 0x39A, "Lambda": 0x39B, "Mu": 0x39C, "Nu": 0x39D, "Xi": 0x39E,
        "Omicron": 0x39F, "Pi": 0x3A0, "Rho": 0x3A1, "Sigma": 0x3A3, "Tau": 0x3A4, "Upsilon": 0x3A5, "Phi": 0x3A6,
        "Chi": 0x3A7, "Psi": 0x3A8, "Omega": 0x3A9, "alpha": 0x3B1, "beta": 0x3B2, "gamma": 0x3B3, "delta": 0x3B4,
        "epsilon": 0x3B5, "zeta": 0x3B6, "eta": 0x3B7, "theta": 0x3B8, "iota": 0x3B9, "kappa": 0x3BA, "lambda": 0x3BB,
        "mu": 0x3BC, "nu": 0x3BD, "xi": 0x3BE, "omicron": 0x3BF, "pi": 0x3C0, "rho": 0x3C1, "sigmaf": 0x3C2,
        "sigma": 0x3C3, "tau": 0x3C4, "upsilon": 0x3C5, "phi": 0x3C6, "chi": 0x3C7, "psi": 0x3C8, "omega": 0x3C9,
    ]

    static let named: [String: String] = {
        var table: [String: String] = [:]
        for (n, name) in latin1.enumerated() { table[name] = String(Character(Unicode.Scalar(UInt32(0xA0 + n))!)) }
        for (name, value) in others { table[name] = String(Character(Unicode.Scalar(value)!)) }
        return table
    }()

    private static let legacy: Set<String> = Set(latin1).union(["amp", "lt", "gt", "quot"])
    private static let longestName = 8
}
