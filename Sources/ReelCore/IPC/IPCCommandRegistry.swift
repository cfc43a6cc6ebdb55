import Foundation

/// Commands a component adds to the socket's vocabulary (and input.conf's, which runs through a
/// dispatcher too): a feature brings its own commands without an edit to `IPCCommand`; a
/// built-in name is never taken over. One per session, shared by its dispatchers.
@MainActor
public final class IPCCommandRegistry {
    public typealias Command = @MainActor (_ args: [JSONValue]) throws -> JSONValue
    private var commands: [String: Command] = [:]

    public init() {}

    public var names: Set<String> { Set(commands.keys) }

    public func register(_ name: String, _ run: @escaping Command) {
        guard !IPCCommand.names.contains(name) else { return }
        commands[name] = run
    }

    func command(_ name: String) -> Command? { commands[name] }
}
