/// A code whose wire name is its case name in kebab case (`invalidJSON` → "invalid-json",
/// `readOnlyProperty` → "read-only-property", `ioError` → "io-error"): each code is spelled once,
/// and every one follows the same rule. `rawValue` and `init?(rawValue:)` as a String enum's.
public protocol KebabCaseCode: RawRepresentable, CaseIterable, Sendable where RawValue == String {}

extension KebabCaseCode {
    public var rawValue: String { Self.kebab(String(describing: self)) }

    public init?(rawValue: String) {
        guard let code = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = code
    }

    /// A camelCase name in kebab case: a word starts at a capital after a small letter or a
    /// digit, and at the last capital of a run that a small letter follows ("JSONValue": json-value).
    static func kebab(_ name: String) -> String {
        let letters = Array(name)
        var out = ""
        for (i, c) in letters.enumerated() {
            if c.isUppercase, i > 0 {
                let previous = letters[i - 1], next = i + 1 < letters.count ? letters[i + 1] : nil
                if previous.isLowercase || previous.isNumber || (previous.isUppercase && next?.isLowercase == true) { out.append("-") }
            }
            out.append(contentsOf: c.lowercased())
        }
        return out
    }
}
