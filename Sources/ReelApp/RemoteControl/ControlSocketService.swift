import Foundation
import ReelCore
import ReelEngine
import ReelGLib

/// The control socket (`--ipc`): a `ControlSocketServer` whose lines run through an
/// `IPCDispatcher` on the main thread, as mpv's JSON IPC (DOCS/man/ipc.rst) is spoken: every
/// event goes to every client, Reel's (the `--events` objects) and mpv's beside them
/// (`MPVEvents`); each connection is an `IPCConnection` with its own observers
/// (`observe_property`: a `property-change` when the value changed, compared once for all
/// clients after each event and command, never polled); `script-message` reaches every client as
/// a `client-message`.
@MainActor
final class ControlSocketService {
    typealias ClientID = ControlSocketServer.ClientID
    private let server: ControlSocketServer
    private let dispatcher: IPCDispatcher
    private var connections: [ClientID: SocketConnection] = [:]
    /// The last value told to observers, per property name.
    private var lastTold: [String: JSONValue] = [:]
    private var mpvEvents = MPVEvents()

    var path: String { server.path }
    var properties: PropertyTable { dispatcher.properties }

    init(path: String, target: PlaybackCommandTarget, screenshotDirectory: URL, template: String = CaptureFileName.defaultTemplate,
         registry: IPCCommandRegistry = IPCCommandRegistry()) throws {
        server = try ControlSocketServer(path: path)
        dispatcher = IPCDispatcher(target: target, screenshotDirectory: screenshotDirectory, template: template, registry: registry)
        registry.register("script-message") { [weak self] args in
            self?.tellClients(args)
            return .null
        }
        // mpv's `script-message-to TARGET ARGS…`: Reel has no scripts; every client is told.
        registry.register("script-message-to") { [weak self] args in
            guard args.count >= 1 else { throw IPCError(.invalidArgument, "“script-message-to” takes a target and a message.") }
            self?.tellClients(Array(args.dropFirst()))
            return .null
        }
        let server = self.server
        server.start(onLine: { [weak self] client, line in
            // A quit is timed from when it arrives, not from when the main thread gets to it: a
            // main thread held for seconds (a huge live playlist's refresh on a busy machine)
            // once kept Reel for 6.9 s after `quit` (QuitDeadlineTests).
            if case .success(let request) = IPCRequest.parse(line), case .quit(let status) = request.command {
                ExitDeadline.arm(status: status)
            }
            MainQueue.shared.async {
                guard let self else { return }
                self.dispatcher.handle(line, connection: self.connection(client)) { reply in
                    server.send(reply, to: client)
                    self.tellObservers()
                }
            }
        }, onOverlongLine: { client in
            server.send(IPCDispatcher.errorLine(id: .null, error: IPCError(.invalidRequest, "The line was longer than 1 MiB and was discarded.")), to: client)
        }, onClosed: { [weak self] client in
            MainQueue.shared.async { self?.connections[client] = nil }
        })
    }

    private func connection(_ client: ClientID) -> SocketConnection {
        if let c = connections[client] { return c }
        let c = SocketConnection(client: client, service: self)
        connections[client] = c
        return c
    }

    /// Sends an event to every client, as `--events` prints it, and mpv's events for it.
    func publish(_ event: PlayerEvent, item: Int?, time: Double) {
        broadcast(EventEncoder.line(event, item: item, time: time), name: event.name)
        for e in mpvEvents.translate(event, item: item) {
            if case .object(let pairs) = e, case .string(let name)? = pairs.first?.1 { broadcast(e.serialized(), name: name) }
        }
        tellObservers()
    }

    /// A line to every client but those that turned its event off (`disable_event`).
    private func broadcast(_ line: String, name: String) {
        let muted = connections.filter { $0.value.isDisabled(name) }.map(\.key)
        server.broadcast(line, except: Set(muted))
    }

    /// mpv's `client-message`: `script-message`'s arguments, as strings, to every client.
    private func tellClients(_ args: [JSONValue]) {
        let words = args.map { $0.ipcString ?? $0.serialized() }
        broadcast(MPVEvents.event("client-message", [("args", .array(words.map(JSONValue.string)))]).serialized(), name: "client-message")
    }

    /// Tells observers the properties whose values changed since they were last told: each
    /// observed property read once, from one snapshot, for every client.
    func tellObservers() {
        let observed = Set(connections.values.flatMap { $0.observed.values.map(\.name) })
        guard !observed.isEmpty else { return }
        let s = properties.snapshot()
        var changed: [String: JSONValue] = [:]
        for name in observed {
            let value = (try? properties.get(name, in: s)) ?? .null
            if lastTold[name] != value { changed[name] = value }
            lastTold[name] = value
        }
        for c in connections.values {
            for (id, o) in c.observed.sorted(by: { $0.key < $1.key }) {
                // A new observer hears the value now (mpv sends it at once), the others a change.
                if let value = changed[o.name] ?? (o.told ? nil : lastTold[o.name]) { c.tell(id: id, value: value) }
            }
        }
    }

    func send(_ line: String, to client: ClientID) { server.send(line, to: client) }

    func stop() {
        broadcast(MPVEvents.event("shutdown").serialized(), name: "shutdown")
        server.stop()
    }
}

/// One client of the socket, answering mpv's connection commands (`IPCCommand.connectionNames`).
@MainActor
final class SocketConnection: IPCConnection {
    struct Observer {
        var name: String
        var asString: Bool
        /// It was told a value (a new one hears the value now, after the reply).
        var told = false
    }
    let client: ControlSocketServer.ClientID
    private weak var service: ControlSocketService?
    private(set) var observed: [Int: Observer] = [:]
    private var disabled: Set<String> = []
    private var allDisabled = false

    /// mpv's client API version (`MPV_CLIENT_API_VERSION`, 2.5), which `get_version` answers.
    static let clientAPIVersion = 2 << 16 | 5

    init(client: ControlSocketServer.ClientID, service: ControlSocketService) {
        self.client = client
        self.service = service
    }

    func isDisabled(_ event: String) -> Bool { allDisabled ? !disabled.contains(event) : disabled.contains(event) }

    func run(_ name: String, _ args: [JSONValue]) throws -> JSONValue {
        func id(_ i: Int) throws -> Int {
            guard args.count > i, let n = args[i].ipcNumber, let id = BoundedNumber.wholeNumber(abs(n), in: 0...Int(Int64.max >> 11)) else {
                throw IPCError(.invalidArgument, "“\(name)” takes an observer id (a whole number).")
            }
            return n < 0 ? -id : id
        }
        switch name {
        case "client_name": return .string("ipc-\(client)")
        case "get_version": return .int(Self.clientAPIVersion)
        case "get_time_us": return .int(Int(DispatchTime.now().uptimeNanoseconds / 1000))
        case "observe_property", "observe_property_string":
            let n = try id(0)
            guard args.count == 2, let property = args[1].ipcString, !property.isEmpty else {
                throw IPCError(.invalidArgument, "“\(name)” takes an id and a property name.")
            }
            guard observed.count < 1000 || observed[n] != nil else { throw IPCError(.invalidArgument, "At most 1000 observers per connection.") }
            observed[n] = Observer(name: property, asString: name == "observe_property_string")
        case "unobserve_property":
            observed[try id(0)] = nil
        case "enable_event", "disable_event":
            guard args.count == 1, let event = args[0].ipcString else { throw IPCError(.invalidArgument, "“\(name)” takes an event name or all.") }
            let on = name == "enable_event"
            if event == "all" {
                allDisabled = !on
                disabled = []
            } else if on != allDisabled {
                disabled.remove(event)
            } else {
                disabled.insert(event)
            }
        case "request_log_messages":
            // Reel's log is stderr (`REEL_DEBUG`); no log-message events are sent.
            break
        default:
            throw IPCError(.unknownCommand, "Unknown command “\(name)”.")
        }
        return .null
    }

    func tell(id: Int, value: JSONValue) {
        guard let observer = observed[id] else { return }
        observed[id]?.told = true
        var data = value
        if observer.asString, value != .null { data = .string((try? IPCDispatcher.text(of: value, name: observer.name)) ?? value.serialized()) }
        var fields: [(String, JSONValue)] = [("event", .string("property-change")), ("id", .int(id)), ("name", .string(observer.name))]
        if value != .null { fields.append(("data", data)) }
        service?.send(JSONValue.object(fields).serialized(), to: client)
    }
}
