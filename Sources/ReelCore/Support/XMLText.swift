/// Text for XML documents Reel writes (XSPF playlists, JUnit reports).
public enum XMLText {
    /// Escapes text or an attribute value; characters XML 1.0 cannot carry are dropped: C0/C1
    /// controls and DEL (a reader takes text full of control characters for binary data).
    /// The same serves HTML (`CheckReportHTML`): HTML5 knows the five entities.
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        ScalarEscape.append(text, to: &out) { s in
            switch s {
            case "&": "&amp;"
            case "<": "&lt;"
            case ">": "&gt;"
            case "\"": "&quot;"
            case "'": "&apos;"
            case "\t", "\n", "\r": nil
            case _ where s.value < 0x20 || (0x7F...0x9F).contains(s.value) || s.value == 0xFFFE || s.value == 0xFFFF: ""
            default: nil
            }
        }
        return out
    }
}

/// Text escaped scalar by scalar, the one loop of Reel's escapers (XML and HTML: `XMLText`; JSON:
/// `JSONValue`): `replacement` says what a scalar becomes (nil: itself; "": dropped).
public enum ScalarEscape {
    @inline(__always)
    public static func append(_ text: String, to out: inout String, _ replacement: (Unicode.Scalar) -> String?) {
        for s in text.unicodeScalars {
            if let r = replacement(s) { out += r } else { out.unicodeScalars.append(s) }
        }
    }
}
