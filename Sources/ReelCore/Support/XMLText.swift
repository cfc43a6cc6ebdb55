/// Text for XML documents Reel writes (XSPF playlists, JUnit reports).
public enum XMLText {
    /// Escapes text or an attribute value; characters XML 1.0 cannot carry are dropped: C0/C1
    /// controls and DEL (a reader takes text full of control characters for binary data).
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for s in text.unicodeScalars {
            switch s {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(s)
            default:
                let v = s.value
                if v < 0x20 || (0x7F...0x9F).contains(v) || v == 0xFFFE || v == 0xFFFF { continue }
                out.unicodeScalars.append(s)
            }
        }
        return out
    }
}
