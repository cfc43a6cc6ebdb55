import Foundation

/// A JSON value with ordered object keys, for stable, readable one-line output.
public indirect enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool { a.serialized() == b.serialized() }

    public static func optional(_ s: String?) -> JSONValue { s.map { .string($0) } ?? .null }
    public static func optional(_ i: Int?) -> JSONValue { i.map { .int($0) } ?? .null }
    public static func optional(_ d: Double?) -> JSONValue { d.map { .double($0) } ?? .null }
    public static func optional(_ b: Bool?) -> JSONValue { b.map { .bool($0) } ?? .null }

    /// A double as JSON: at most three decimals, trailing zeros dropped but one digit kept after
    /// the point ("0.0", never "0." — 0.0004 rounds to that), non-finite values as null.
    static func number(_ d: Double) -> String {
        guard d.isFinite else { return "null" }
        if d == d.rounded() && abs(d) < 1e15 { return String(format: "%.1f", d) }
        var s = String(format: "%.3f", d)
        while s.hasSuffix("0") { s.removeLast() }
        if s.hasSuffix(".") { s += "0" }
        return s == "-0.0" ? "0.0" : s
    }

    /// Compact, one line, keys in the order given.
    public func serialized() -> String {
        var out = ""
        write(into: &out)
        return out
    }

    private func write(into out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .double(let d): out += JSONValue.number(d)
        case .string(let s): JSONValue.escape(s, into: &out)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(into: &out)
            }
            out += "]"
        case .object(let pairs):
            out += "{"
            for (i, (k, v)) in pairs.enumerated() {
                if i > 0 { out += "," }
                JSONValue.escape(k, into: &out)
                out += ":"
                v.write(into: &out)
            }
            out += "}"
        }
    }

    static func escape(_ s: String, into out: inout String) {
        out += "\""
        ScalarEscape.append(s, to: &out) { u in
            switch u {
            case "\"": "\\\""
            case "\\": "\\\\"
            case "\n": "\\n"
            case "\r": "\\r"
            case "\t": "\\t"
            case _ where u.value < 0x20: String(format: "\\u%04x", u.value)
            default: nil
            }
        }
        out += "\""
    }
}
