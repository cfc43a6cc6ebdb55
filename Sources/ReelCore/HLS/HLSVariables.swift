import Foundation

/// `EXT-X-DEFINE` (RFC 8216bis §4.4.2.3): variables defined by `NAME`/`VALUE`, `IMPORT`ed from the
/// multivariant playlist, or taken from the playlist URL's query (`QUERYPARAM`), and substituted
/// for `{$name}` in later lines. A reference to an undefined variable is left as written and
/// reported.
struct HLSVariables {
    private(set) var values: [String: String] = [:]
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

    /// `text` with every `{$name}` replaced; the names that were not defined.
    func substitute(_ text: Substring) -> (Substring, undefined: [String]) {
        guard text.contains("{$") else { return (text, []) }
        var result = ""
        var undefined: [String] = []
        var rest = text[...]
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
            rest = rest[rest.index(after: close)...]
        }
        result += rest
        return (Substring(result), undefined)
    }
}
