/// One HTTP header for protected streams, as given on the command line (`Name: value`), in a
/// playlist entry or through the API. Values are registered with `Redactor` as secrets.
public struct HeaderField: Sendable, Equatable, Hashable, CustomStringConvertible {
    public var name: String
    public var value: String

    public enum ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        case missingColon(String)
        case invalidName(String)
        case invalidValue(name: String)
        public var description: String {
            switch self {
            case .missingColon: "A header must be written 'Name: value'."
            case .invalidName(let name): "'\(name)' is not a valid HTTP header name."
            case .invalidValue(let name): "The value of header '\(name)' contains a line break or control character."
            }
        }
    }

    /// Headers the gateway sets itself; the user may not override them.
    public static let reserved: Set<String> = ["host", "content-length", "transfer-encoding", "connection", "range", "upgrade", "te", "trailer", "keep-alive"]

    public init(name: String, value: String) throws(ParseError) {
        guard !name.isEmpty, name.unicodeScalars.allSatisfy(HeaderField.isTokenCharacter) else { throw .invalidName(name) }
        guard !HeaderField.reserved.contains(name.lowercased()) else { throw .invalidName(name) }
        guard !value.unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7f }) else { throw .invalidValue(name: name) }
        self.name = name
        self.value = value
    }

    /// Parses `Name: value` (blanks around the value are dropped; the value may be empty).
    public init(parsing text: String) throws(ParseError) {
        guard let colon = text.firstIndex(of: ":") else { throw .missingColon(Redactor.redactText(text)) }
        let name = String(text[..<colon]).trimmingCharacters(in: .whitespaces)
        let value = String(text[text.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
        try self.init(name: name, value: value)
    }

    /// RFC 9110 token characters.
    static func isTokenCharacter(_ c: Unicode.Scalar) -> Bool {
        guard c.isASCII else { return false }
        if c.properties.isAlphabetic || ("0"..."9").contains(c) { return true }
        return "!#$%&'*+-.^_`|~".unicodeScalars.contains(c)
    }

    /// Registers the value as a secret with `Redactor` (every header value given for a protected
    /// stream is treated as one: it may be a token under any name).
    public func registerSecret() { Redactor.register(secret: value) }

    /// `Name: ***` when the value is secret, for logs.
    public var description: String { Redactor.redactHeader(name: name, value: value) }
}
