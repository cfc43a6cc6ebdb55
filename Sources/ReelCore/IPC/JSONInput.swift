import Foundation

/// Reads untrusted JSON text into a `JSONValue` (object keys sorted, so output is stable).
/// Numbers without a fraction become `.int`, others `.double`; booleans stay booleans.
enum JSONInput {
    struct ParseError: Error, Sendable { var message: String }

    static func parse(_ text: String) throws -> JSONValue {
        do {
            return try JSONDecoder().decode(Box.self, from: Data(text.utf8)).value
        } catch let error as DecodingError {
            throw ParseError(message: describe(error))
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .dataCorrupted(let c): c.underlyingError.map { "\($0.localizedDescription)" } ?? c.debugDescription
        default: "\(error)"
        }
    }

    private struct Box: Decodable {
        var value: JSONValue
        init(from decoder: Decoder) throws {
            if var a = try? decoder.unkeyedContainer() {
                var items: [JSONValue] = []
                while !a.isAtEnd { items.append(try a.decode(Box.self).value) }
                value = .array(items)
                return
            }
            if let o = try? decoder.container(keyedBy: Key.self) {
                var pairs: [(String, JSONValue)] = []
                for k in o.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
                    pairs.append((k.stringValue, try o.decode(Box.self, forKey: k).value))
                }
                value = .object(pairs)
                return
            }
            let c = try decoder.singleValueContainer()
            if c.decodeNil() { value = .null }
            else if let b = try? c.decode(Bool.self) { value = .bool(b) }
            else if let i = try? c.decode(Int.self) { value = .int(i) }
            else if let d = try? c.decode(Double.self) { value = .double(d) }
            else { value = .string(try c.decode(String.self)) }
        }
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

extension JSONValue {
    /// Numbers as Double (ints included).
    public var ipcNumber: Double? {
        switch self {
        case .int(let i): Double(i)
        case .double(let d): d
        default: nil
        }
    }
    public var ipcString: String? { if case .string(let s) = self { s } else { nil } }
    public var ipcBool: Bool? { if case .bool(let b) = self { b } else { nil } }
}
