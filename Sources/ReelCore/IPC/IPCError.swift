/// Why a control-socket request failed: `code` is the reply's `"error"` string, `message` says
/// what to fix. Documented in docs/SOCKET.md.
public struct IPCError: Error, Sendable, Equatable {
    /// On the wire in kebab case ("invalid-json", "read-only-property", "io-error").
    public enum Code: KebabCaseCode {
        case invalidJSON, invalidRequest, unknownCommand, invalidArgument, unknownProperty, readOnlyProperty
        case unavailable, captureFailed, ioError
    }

    public var code: Code
    public var message: String
    public init(_ code: Code, _ message: String) { self.code = code; self.message = message }
}
