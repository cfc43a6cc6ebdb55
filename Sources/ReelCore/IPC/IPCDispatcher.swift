import Foundation

/// The socket connection a request came on: it answers mpv's connection commands
/// (`client_name`, `observe_property`, …; `IPCCommand.connectionNames`).
@MainActor
public protocol IPCConnection: AnyObject {
    func run(_ name: String, _ args: [JSONValue]) throws -> JSONValue
}

/// Runs control-socket requests against a `PlaybackCommandTarget` and writes the replies:
/// `{"request_id":…,"error":"success","data":…}` or `{"request_id":…,"error":"<code>","message":"…"}`.
/// Never throws and never traps on input: every line gets exactly one reply.
@MainActor
public final class IPCDispatcher {
    public let target: PlaybackCommandTarget
    /// Where `["screenshot"]` writes, named by `template` (see `CaptureFileName`).
    public var screenshotDirectory: URL
    public var template: String

    /// Commands components added (`IPCCommandRegistry`), shared by every dispatcher of a session.
    public let registry: IPCCommandRegistry

    /// The session's properties (the registry's).
    public var properties: PropertyTable { registry.properties }

    public init(target: PlaybackCommandTarget, screenshotDirectory: URL, template: String = CaptureFileName.defaultTemplate,
                registry: IPCCommandRegistry = IPCCommandRegistry()) {
        self.target = target
        self.registry = registry
        // A session declares the transport's properties at assembly; a dispatcher made on its own
        // (tests, input.conf alone) declares them over its target.
        if registry.properties.property("pause") == nil {
            PlaybackProperties.declare(in: registry.properties, target: target)
            registry.properties.snapshot = { [weak target] in target?.snapshot ?? PlaybackSnapshot() }
        }
        self.screenshotDirectory = screenshotDirectory
        self.template = template
    }

    nonisolated public static func successLine(id: JSONValue, data: JSONValue = .null) -> String {
        JSONValue.object([("request_id", id), ("error", .string("success")), ("data", data)]).serialized()
    }

    nonisolated public static func errorLine(id: JSONValue, error: IPCError) -> String {
        JSONValue.object([("request_id", id), ("error", .string(error.code.rawValue)), ("message", .string(Redactor.redactText(error.message)))]).serialized()
    }

    /// Handles one line; `reply` is called exactly once (later, for screenshots). `connection`:
    /// the socket connection it came on, which answers the connection's own commands.
    public func handle(_ line: String, connection: IPCConnection? = nil, reply: @escaping @MainActor (String) -> Void) {
        switch IPCRequest.parse(line, registered: registry.names) {
        case .failure(let f):
            reply(Self.errorLine(id: f.id, error: f.error))
        case .success(let request):
            run(request, connection: connection, reply: reply)
        }
    }

    public func run(_ request: IPCRequest, connection: IPCConnection? = nil, reply: @escaping @MainActor (String) -> Void) {
        let id = request.id
        do {
            switch request.command {
            case .screenshot(let path, let source):
                screenshot(path: path, source: source) { result in
                    switch result {
                    case .success(let data): reply(Self.successLine(id: id, data: data))
                    case .failure(let e): reply(Self.errorLine(id: id, error: e))
                    }
                }
            case .quit(let status):
                reply(Self.successLine(id: id))
                target.quit(status: status)
            default:
                reply(Self.successLine(id: id, data: try execute(request.command, connection: connection)))
            }
        } catch let e as IPCError {
            reply(Self.errorLine(id: id, error: e))
        } catch {
            reply(Self.errorLine(id: id, error: IPCError(.unavailable, "\(error)")))
        }
    }

    /// Runs a synchronous command; returns the reply's data.
    public func execute(_ command: IPCCommand, connection: IPCConnection? = nil) throws -> JSONValue {
        let t = target
        switch command {
        case .load(let uri, let options): t.load(uri, options: options)
        case .append(let uri, let options): t.append(uri, options: options)
        case .play: t.play()
        case .pause: t.pause()
        case .toggle: t.toggle()
        case .stop: t.stop()
        case .seek(let value, let reference, let mode):
            let s = t.snapshot
            guard s.index != nil else { throw IPCError(.unavailable, "Nothing is loaded.") }
            let target: Double
            switch reference {
            case .absolute: target = value
            case .relative: target = s.position + value
            case .absolutePercent, .relativePercent:
                guard let d = s.duration, d > 0 else { throw IPCError(.unavailable, "The item has no known duration: seek by seconds instead.") }
                target = reference == .absolutePercent ? d * value / 100 : s.position + d * value / 100
            }
            t.seek(to: target, mode: mode)
        case .skip(let delta):
            guard t.snapshot.index != nil else { throw IPCError(.unavailable, "Nothing is loaded.") }
            t.skip(by: delta)
        // Reel's own words for three properties: the property's one road.
        case .rate(let r): try properties.set("speed", .double(r))
        case .volume(let v): try properties.set("volume", .double(v))
        case .mute(let m): try m.map { try properties.set("mute", .bool($0)) } ?? properties.cycle("mute")
        case .next:
            guard t.next() else { throw IPCError(.unavailable, "There is no next item.") }
        case .previous:
            guard t.previous() else { throw IPCError(.unavailable, "There is no previous item.") }
        case .jump(let i):
            guard t.jump(to: i) else { throw IPCError(.unavailable, "There is no item \(i) (the queue has \(t.snapshot.items.count)).") }
        case .move(let from, let to):
            let count = t.snapshot.items.count
            guard from < count, to <= count else { throw IPCError(.unavailable, "There is no item \(max(from, to)) (the queue has \(count)).") }
            guard t.moveItem(from: from, to: to) else { throw IPCError(.unavailable, "This session has no queue to edit.") }
        case .remove(let index):
            let count = t.snapshot.items.count
            guard let i = index ?? t.snapshot.index, i < count else {
                throw IPCError(.unavailable, index == nil ? "Nothing is current." : "There is no item \(index ?? 0) (the queue has \(count)).")
            }
            guard t.removeItem(at: i) else { throw IPCError(.unavailable, "This session has no queue to edit.") }
        case .item(let action, let reference):
            let items = t.snapshot.items
            let index: Int? = switch reference {
            case .index(let i): items.indices.contains(i) ? i : nil
            case .id(let id): items.firstIndex { $0.id == id }
            }
            guard let index, t.item(action, at: index) else {
                throw IPCError(.unavailable, "There is no such item (the queue has \(items.count); give an index or an id from “playlist”).")
            }
        case .getProperty(let name):
            return try properties.get(name)
        case .getPropertyString(let name):
            return .string(try Self.text(of: properties.get(name), name: name))
        case .setProperty(let name, let value):
            try properties.set(name, value)
        case .cycle(let name, let backwards):
            try properties.cycle(name, backwards: backwards)
        case .add(let name, let step):
            try properties.add(name, step)
        case .multiply(let name, let factor):
            try properties.multiply(name, factor)
        case .cycleValues(let name, let values):
            try properties.cycleValues(name, values)
        case .connection(let name, let args):
            guard let connection else { throw IPCError(.unavailable, "“\(name)” is a command of a socket connection; there is none here.") }
            return try connection.run(name, args)
        case .registered(let name, let args):
            guard let run = registry.command(name) else { throw IPCError(.unknownCommand, "Unknown command “\(name)”.") }
            return try run(args)
        case .screenshot, .quit:
            break  // handled in run
        }
        return .null
    }

    /// The most entries `playlist` answers in one reply (`PlaybackProperties`).
    public static var playlistWholeLimit: Int { PlaybackProperties.playlistWholeLimit }

    /// A value as mpv's `get_property_string` gives it: numbers with six decimals, flags yes/no.
    public static func text(of value: JSONValue, name: String) throws -> String {
        switch value {
        case .null: throw IPCError(.unavailable, "“\(name)” has no value now.")
        case .bool(let b): return b ? "yes" : "no"
        case .int(let i): return String(i)
        case .double(let d): return String(format: "%.6f", d)
        case .string(let s): return s
        default: return value.serialized()
        }
    }

    private func screenshot(path: String?, source: IPCCommand.CaptureSource, completion: @escaping @MainActor (Result<JSONValue, IPCError>) -> Void) {
        let before = target.snapshot
        guard before.index != nil || source == .window else { completion(.failure(IPCError(.unavailable, "Nothing is loaded."))); return }
        let directory = screenshotDirectory
        let template = self.template
        let capture: (@escaping @MainActor (Result<CapturedFrame, PlaybackError>) -> Void) -> Void =
            source == .window ? target.captureWindow : target.captureFrame
        capture { [weak self] result in
            guard let self else { return }
            switch result {
            case .failure(let e):
                completion(.failure(IPCError(.captureFailed, e.message)))
            case .success(let frame):
                let s = self.target.snapshot
                let file: URL
                if let path {
                    file = URL(fileURLWithPath: path)
                } else {
                    do {
                        let title = CaptureFileName.title(for: s.current?.uri ?? "", tagTitle: s.mediaInfo.title)
                        let position = frame.time ?? s.position
                        let name = source == .window
                            ? try CaptureFileName.renderWindow(template, index: s.index, title: title, position: position)
                            : try CaptureFileName.render(template, index: s.index, title: title, position: position)
                        file = directory.appendingPathComponent(name)
                    } catch {
                        completion(.failure(IPCError(.invalidArgument, "\(error)")))
                        return
                    }
                }
                do {
                    try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try frame.png.write(to: file, options: .atomic)
                } catch {
                    completion(.failure(IPCError(.ioError, "Could not write \(file.path): \(error.localizedDescription)")))
                    return
                }
                let size = frame.size
                completion(.success(.object([("file", .string(file.path)), ("time", .optional(frame.time)),
                                             ("width", .optional(size?.width)), ("height", .optional(size?.height)),
                                             ("index", .optional(s.index))])))
            }
        }
    }
}
