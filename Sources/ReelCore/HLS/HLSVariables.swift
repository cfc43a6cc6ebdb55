import Foundation

/// `EXT-X-DEFINE` (RFC 8216bis §4.4.2.3): variables defined by `NAME`/`VALUE`, `IMPORT`ed from the
/// multivariant playlist, or taken from the playlist URL's query (`QUERYPARAM`), and substituted
/// for `{$name}` in later lines. A reference to an undefined variable is left as written and
/// reported.
///
/// Substitution is bounded (a 0.5 MB playlist of references to one long value would otherwise
/// expand to gigabytes): a line grows to at most `maxLineLength` characters and the whole
/// playlist by at most `maxExpansion`; past either, the line is left as written and reported.
struct HLSVariables {
    /// The longest a line may become by substitution (characters).
    static let maxLineLength = 64 * 1024
    /// What substitution may add to one playlist in all (characters).
    static let maxExpansion = 4 * 1024 * 1024

    private(set) var values: [String: String] = [:]
    /// Characters substitution has added so far.
    private var expanded = 0
    /// What a media playlist may import (the multivariant playlist's variables).
    let importable: [String: String]
    /// The playlist's own URL (for `QUERYPARAM`).
    let url: URL?

    init(importable: [String: String], url: URL?) {
        self.importable = importable
        self.url = url
    }

    /// Reads one `EXT-X-DEFINE`; returns a problem when it cannot be honoured.
    mutating func define(_ a: HLSAttributeList, line: Int) -> HLSProblem? {
        func problem(_ code: String, _ message: String) -> HLSProblem { HLSProblem(line: line, severity: .error, code: code, message: message) }
        if let name = a["NAME"] {
            guard let value = a["VALUE"] else { return problem("invalid-define", "EXT-X-DEFINE NAME=\"\(name)\" has no VALUE.") }
            if values[name] != nil { return problem("duplicate-variable", "The variable \"\(name)\" is defined twice.") }
            values[name] = value
        } else if let name = a["IMPORT"] {
            guard let value = importable[name] else {
                return problem("undefined-variable", "EXT-X-DEFINE IMPORT=\"\(name)\": the multivariant playlist defines no such variable.")
            }
            values[name] = value
        } else if let name = a["QUERYPARAM"] {
            guard let url else {
                return HLSProblem(line: line, severity: .warning, code: "unresolved-queryparam",
                                  message: "EXT-X-DEFINE QUERYPARAM=\"\(name)\" needs the playlist's URL.")
            }
            guard let value = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first(where: { $0.name == name })?.value else {
                return problem("undefined-variable", "EXT-X-DEFINE QUERYPARAM=\"\(name)\": the playlist URL has no such query parameter.")
            }
            values[name] = value
        } else {
            return problem("invalid-define", "EXT-X-DEFINE needs NAME, IMPORT or QUERYPARAM.")
        }
        return nil
    }

    /// `text` with every `{$name}` replaced; the names that were not defined; and whether the
    /// line was left as written because substituting it would pass the bounds.
    mutating func substitute(_ text: Substring) -> (Substring, undefined: [String], tooLong: Bool) {
        guard text.contains("{$") else { return (text, [], false) }
        var result = ""
        var undefined: [String] = []
        var rest = text[...]
        let budget = min(Self.maxLineLength, text.utf8.count + max(0, Self.maxExpansion - expanded))
        while let open = rest.range(of: "{$") {
            result += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].firstIndex(of: "}") else {
                rest = rest[open.lowerBound...]
                break
            }
            let name = String(rest[open.upperBound..<close])
            if let value = values[name] { result += value } else {
                undefined.append(name)
                result += rest[open.lowerBound...close]
            }
            if result.utf8.count > budget { return (text, [], true) }
            rest = rest[rest.index(after: close)...]
        }
        result += rest
        if result.utf8.count > budget { return (text, [], true) }
        expanded += max(0, result.utf8.count - text.utf8.count)
        return (Substring(result), undefined, false)
    }
}
