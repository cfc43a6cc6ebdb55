import Foundation

/// An HTTP `Range` request header (RFC 9110 §14.1.2) resolved against a body of known size, as
/// the gateway answers it for local files: `bytes=a-b`, `bytes=a-` or `bytes=-n`. Only the first
/// range of a list is served. Every number is checked: a value past `Int64.max`, a start past the
/// end or an empty suffix gives nil (416), never a trap.
public enum HTTPByteRange {
    /// The inclusive byte range to send, or nil when the header cannot be satisfied.
    public static func resolve(_ header: String, size: Int64) -> ClosedRange<Int64>? {
        let text = header.trimmingCharacters(in: .whitespaces)
        guard text.lowercased().hasPrefix("bytes="), size > 0 else { return nil }
        let spec = text.dropFirst(6).split(separator: ",").first.map(String.init) ?? ""
        let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }) else { return nil }
        if parts[0].isEmpty {
            guard let n = Int64(parts[1]), n > 0 else { return nil }
            return max(0, size - n)...(size - 1)
        }
        guard let start = Int64(parts[0]), start < size else { return nil }
        // An end past Int64.max still means "to the end".
        let end = parts[1].isEmpty ? size - 1 : min(size - 1, Int64(parts[1]) ?? Int64.max)
        return end >= start ? start...end : nil
    }
}

extension Character {
    /// "0"…"9" only (not other scripts' digits, which `isNumber` accepts).
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
