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
        case .double(let d):
            if !d.isFinite { out += "null" }
            else if d == d.rounded() && abs(d) < 1e15 { out += String(format: "%.1f", d) }
            else { out += String(format: "%.3f", d).replacingOccurrences(of: #"0+$"#, with: "", options: .regularExpression) }
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
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where u.value < 0x20: out += String(format: "\\u%04x", u.value)
            default: out.unicodeScalars.append(u)
            }
        }
        out += "\""
    }
}
