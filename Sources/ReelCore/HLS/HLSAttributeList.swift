/// An HLS attribute list (`NAME=VALUE,NAME="quoted, value",…`), in order, as written.
/// Quoted values keep no quotes in `value`; `isQuoted` says how they were written.
public struct HLSAttributeList: Sendable, Equatable {
    public struct Attribute: Sendable, Equatable {
        public var name: String
        public var value: String
        public var isQuoted: Bool
        /// Where the value's characters (inside the quotes, when quoted) sit in the parsed text.
        public var valueRange: Range<String.Index>
    }

    public private(set) var attributes: [Attribute]

    /// Parses the text after `#EXT-X-TAG:`. Never fails: malformed pieces are skipped.
    public init(parsing text: Substring) {
        var result: [Attribute] = []
        var i = text.startIndex
        while i < text.endIndex {
            // Skip separators and blanks.
            while i < text.endIndex, text[i] == "," || text[i] == " " || text[i] == "\t" { i = text.index(after: i) }
            guard i < text.endIndex else { break }
            let nameStart = i
            while i < text.endIndex, text[i] != "=", text[i] != "," { i = text.index(after: i) }
            let name = text[nameStart..<i].trimmingCharacters(in: .whitespaces)
            guard i < text.endIndex, text[i] == "=" else { continue }  // a bare word: skip it
            i = text.index(after: i)
            if i < text.endIndex, text[i] == "\"" {
                let valueStart = text.index(after: i)
                var j = valueStart
                while j < text.endIndex, text[j] != "\"" { j = text.index(after: j) }
                result.append(Attribute(name: name, value: String(text[valueStart..<j]), isQuoted: true, valueRange: valueStart..<j))
                i = j < text.endIndex ? text.index(after: j) : j
                while i < text.endIndex, text[i] != "," { i = text.index(after: i) }
            } else {
                let valueStart = i
                while i < text.endIndex, text[i] != "," { i = text.index(after: i) }
                let raw = text[valueStart..<i]
                let trimmedEnd = raw.lastIndex { !$0.isWhitespace }.map { raw.index(after: $0) } ?? valueStart
                result.append(Attribute(name: name, value: String(text[valueStart..<trimmedEnd]), isQuoted: false, valueRange: valueStart..<trimmedEnd))
            }
        }
        attributes = result
    }

    public subscript(name: String) -> String? { attributes.first { $0.name == name }?.value }

    public func integer(_ name: String) -> Int? { self[name].flatMap { Int($0) } }
    public func decimal(_ name: String) -> Double? { self[name].flatMap { Double($0) } }
    public func bool(_ name: String) -> Bool? { self[name].map { $0 == "YES" } }

    /// `RESOLUTION=1280x720` as (1280, 720).
    public func resolution(_ name: String = "RESOLUTION") -> HLSResolution? {
        guard let text = self[name] else { return nil }
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else { return nil }
        return HLSResolution(width: w, height: h)
    }
}
