/// mpv's text form of a command (input.conf's right-hand side, and a socket line that is not
/// JSON): `cycle pause`, `seek 5 relative exact`, `add volume 2`, `cycle-values aspect fit fill`,
/// `set sub-delay -0.5`, `screenshot "/tmp/a b.png"`. Words are split at spaces; double quotes
/// keep spaces (C escapes \" and \\ inside); a word that reads as a number is one. `#` starts a
/// comment. Only the first command of a `;`-separated list is taken (one command per binding).
public enum InputText {
    public enum Failure: Error, Equatable, Sendable {
        case empty
        case unterminatedQuote
    }

    /// The command's words as the socket's JSON would carry them.
    public static func words(_ text: String) throws(Failure) -> [JSONValue] {
        var words: [String] = [], quoted: [Bool] = []
        var current = "", inWord = false, inQuote = false, wasQuoted = false
        var iterator = text.makeIterator()
        while let c = iterator.next() {
            if inQuote {
                if c == "\\" {
                    if let n = iterator.next() { current.append(n == "n" ? "\n" : n == "t" ? "\t" : n) }
                } else if c == "\"" {
                    inQuote = false
                } else {
                    current.append(c)
                }
                continue
            }
            if c == "#" || c == ";" { break }
            if c == " " || c == "\t" {
                if inWord { words.append(current); quoted.append(wasQuoted); current = ""; inWord = false; wasQuoted = false }
                continue
            }
            inWord = true
            if c == "\"" { inQuote = true; wasQuoted = true } else { current.append(c) }
        }
        if inQuote { throw .unterminatedQuote }
        if inWord { words.append(current); quoted.append(wasQuoted) }
        guard !words.isEmpty else { throw .empty }
        return zip(words, quoted).map { word, isQuoted in
            if !isQuoted, let n = Double(word), n.isFinite, word.first.map({ $0.isNumber || $0 == "-" || $0 == "+" || $0 == "." }) == true {
                return n == n.rounded() && abs(n) < 1e15 && !word.contains(".") ? .int(Int(n)) : .double(n)
            }
            return .string(word)
        }
    }
}
