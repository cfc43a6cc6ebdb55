/// Why a control-socket request failed: `code` is the reply's `"error"` string, `message` says
/// what to fix. Documented in docs/SOCKET.md.
public struct IPCError: Error, Sendable, Equatable {
    public enum Code: String, Sendable {
        case invalidJSON = "invalid-json"
        case invalidRequest = "invalid-request"
        case unknownCommand = "unknown-command"
        case invalidArgument = "invalid-argument"
        case unknownProperty = "unknown-property"
        case readOnlyProperty = "read-only-property"
        case unavailable = "unavailable"
        case captureFailed = "capture-failed"
        case ioError = "io-error"
    }

    public var code: Code
    public var message: String
    public init(_ code: Code, _ message: String) { self.code = code; self.message = message }
}
