/// Why a control-socket request failed: `code` is the reply's `"error"` string, `message` says
/// what to fix. Documented in docs/SOCKET.md.
public struct IPCError: Error, Sendable, Equatable {
    /// On the wire in kebab case ("invalid-json", "read-only-property", "io-error").
    public enum Code: KebabCaseCode {
        case invalidJSON, invalidRequest, unknownCommand, invalidArgument, unknownProperty, readOnlyProperty
        case unavailable, captureFailed, ioError
        /// A value of the wrong type for the property (a word for a number): mpv's own words, as
        /// its clients match them.
        case propertyFormat

        public var rawValue: String {
            switch self {
            case .invalidJSON: "invalid-json"
            case .invalidRequest: "invalid-request"
            case .unknownCommand: "unknown-command"
            case .invalidArgument: "invalid-argument"
            case .unknownProperty: "unknown-property"
            case .readOnlyProperty: "read-only-property"
            case .unavailable: "unavailable"
            case .captureFailed: "capture-failed"
            case .ioError: "io-error"
            case .propertyFormat: "unsupported format for accessing property"
            }
        }
    }

    public var code: Code
    public var message: String
    public init(_ code: Code, _ message: String) { self.code = code; self.message = message }
}
