import Foundation

/// Commands and properties components add to the socket's vocabulary (and input.conf's, which
/// runs through a dispatcher too): a feature brings its own commands and properties without an
/// edit to `IPCCommand` or the dispatcher; a built-in name is never taken over. One per session,
/// shared by its dispatchers, the window's keys and MPRIS.
@MainActor
public final class IPCCommandRegistry {
    public typealias Command = @MainActor (_ args: [JSONValue]) throws -> JSONValue
    private var commands: [String: Command] = [:]
    /// The order commands were registered in (`command-list`).
    private var order: [String] = []
    /// The session's properties (`PropertyTable`), declared by their owners.
    public let properties = PropertyTable()

    public init() {
        weak let registry = self
        properties.declare("IPC", [
            .value("property-list", "Every property's name (mpv's).") { _ in .array((registry?.properties.names ?? []).map(JSONValue.string)) },
            .value("command-list", "Every command: name (mpv's shape, arguments as given).") { _ in
                .array((registry?.allNames ?? []).map { .object([("name", .string($0)), ("args", .array([])), ("vararg", .bool(true))]) })
            },
        ])
    }

    public var names: Set<String> { Set(commands.keys) }

    /// Built-in names first, then the registered ones in the order they came.
    public var allNames: [String] { IPCCommand.names + order }

    public func register(_ name: String, _ run: @escaping Command) {
        guard !IPCCommand.names.contains(name) else { return }
        if commands[name] == nil { order.append(name) }
        commands[name] = run
    }

    func command(_ name: String) -> Command? { commands[name] }
}
