/// One parsed request line: `{"command": [name, args…], "request_id": any}`. The command may also
/// be a bare string for commands without arguments (`{"command": "pause"}`).
public struct IPCRequest: Sendable, Equatable {
    /// Echoed in the reply as given (number, string…); null when absent.
    public var id: JSONValue
    public var command: IPCCommand

    public init(id: JSONValue = .null, command: IPCCommand) { self.id = id; self.command = command }

    /// A request that could not be parsed, with its id when it could be read.
    public struct Failure: Error, Sendable, Equatable {
        public var id: JSONValue
        public var error: IPCError
    }

    /// Parses a line. On failure returns the request id when it could be read, so the error reply
    /// can still carry it.
    /// `registered`: the names of commands components added (`IPCCommand.registered`).
    public static func parse(_ line: String, registered: Set<String> = []) -> Result<IPCRequest, Failure> {
        // A line that starts with a letter is a command in mpv's text form (`cycle pause`), as
        // mpv's socket takes them too; anything else is JSON.
        if let first = line.first(where: { !$0.isWhitespace }), first.isLetter { return parseText(line, registered: registered) }
        let value: JSONValue
        do { value = try JSONInput.parse(line) } catch let e as JSONInput.ParseError {
            return .failure(Failure(id: .null, error: IPCError(.invalidJSON, "The line is not JSON: \(e.message)")))
        } catch {
            return .failure(Failure(id: .null, error: IPCError(.invalidJSON, "The line is not JSON.")))
        }
        guard case .object(let pairs) = value else {
            return .failure(Failure(id: .null, error: IPCError(.invalidRequest, "A request is a JSON object with a \"command\" array.")))
        }
        let id = pairs.first { $0.0 == "request_id" }?.1 ?? .null
        guard let raw = pairs.first(where: { $0.0 == "command" })?.1 else {
            return .failure(Failure(id: id, error: IPCError(.invalidRequest, "The request has no \"command\".")))
        }
        let words: [JSONValue]
        switch raw {
        case .array(let a): words = a
        case .string: words = [raw]
        default: return .failure(Failure(id: id, error: IPCError(.invalidRequest, "\"command\" must be an array such as [\"seek\", 10].")))
        }
        guard let name = words.first?.ipcString else {
            return .failure(Failure(id: id, error: IPCError(.invalidRequest, "\"command\" must start with the command's name.")))
        }
        do {
            return .success(IPCRequest(id: id, command: try command(name, Array(words.dropFirst()), registered: registered)))
        } catch let e as IPCError {
            return .failure(Failure(id: id, error: e))
        } catch {
            return .failure(Failure(id: id, error: IPCError(.invalidArgument, "\(error)")))
        }
    }

    /// A command in mpv's text form (`add volume 2`; see `InputText`), without a request id.
    public static func parseText(_ text: String, registered: Set<String> = []) -> Result<IPCRequest, Failure> {
        let words: [JSONValue]
        do { words = try InputText.words(text) } catch {
            return .failure(Failure(id: .null, error: IPCError(.invalidRequest, error == .empty ? "The command is empty." : "A quote is not closed.")))
        }
        guard let name = words.first?.ipcString else {
            return .failure(Failure(id: .null, error: IPCError(.invalidRequest, "A command starts with its name.")))
        }
        do {
            return .success(IPCRequest(id: .null, command: try command(name, Array(words.dropFirst()), registered: registered)))
        } catch let e as IPCError {
            return .failure(Failure(id: .null, error: e))
        } catch {
            return .failure(Failure(id: .null, error: IPCError(.invalidArgument, "\(error)")))
        }
    }

    /// A last argument that is an object: the item's own options (`{"header": ["X-A: b"]}`, a
    /// string, a number or a list of strings per name), checked as a playlist entry's would be
    /// (the live options as a whole: `LiveProgram`).
    static func itemOptions(_ words: inout [JSONValue], _ name: String) throws -> [String: [String]] {
        guard case .object(let pairs)? = words.last else { return [:] }
        words.removeLast()
        var options: [String: [String]] = [:]
        for (key, value) in pairs {
            switch value {
            case .string(let s): options[key, default: []].append(s)
            case .int(let i): options[key, default: []].append(String(i))       // `"start-offset": 4`
            case .double(let d) where d.isFinite: options[key, default: []].append(String(d))
            case .array(let items):
                for item in items {
                    guard let s = item.ipcString else { throw IPCError(.invalidArgument, "“\(name)”: option “\(key)” takes strings.") }
                    options[key, default: []].append(s)
                }
            default: throw IPCError(.invalidArgument, "“\(name)”: option “\(key)” takes a string or a list of strings.")
            }
        }
        do {
            let parsed = try ProtectedEntryOptions(options: options)
            for header in parsed.headers { header.registerSecret() }
        } catch {
            throw IPCError(.invalidArgument, "“\(name)”: \(error.description)")
        }
        do { _ = try LiveProgram.parse(options) } catch {
            throw IPCError(.invalidArgument, "“\(name)”: option \(error.description)")
        }
        return options
    }

    static func command(_ name: String, _ args: [JSONValue], registered: Set<String> = []) throws -> IPCCommand {
        if registered.contains(name) { return .registered(name, args) }
        func arity(_ range: ClosedRange<Int>) throws {
            guard range.contains(args.count) else {
                let expected = range.lowerBound == range.upperBound ? "\(range.lowerBound)" : "\(range.lowerBound)–\(range.upperBound)"
                throw IPCError(.invalidArgument, "“\(name)” takes \(expected) argument(s), got \(args.count).")
            }
        }
        func string(_ i: Int, _ what: String) throws -> String {
            guard let s = args[i].ipcString, !s.isEmpty else { throw IPCError(.invalidArgument, "“\(name)”: \(what) must be a non-empty string.") }
            return s
        }
        // Which properties there are is the session's table's to say (`PropertyTable`): the
        // dispatcher answers an unknown or read-only one.
        func property(_ i: Int, writable: Bool) throws -> String { try string(i, "the property name") }
        func number(_ i: Int, _ what: String) throws -> Double {
            // Numbers may come as strings, as mpv allows ("10").
            if let d = args[i].ipcNumber ?? args[i].ipcString.flatMap(Double.init), d.isFinite { return d }
            throw IPCError(.invalidArgument, "“\(name)”: \(what) must be a number.")
        }
        switch name {
        case "load", "loadfile":
            var words = args
            let options = try itemOptions(&words, name)
            guard (1...2).contains(words.count) else { try arity(1...2); throw IPCError(.invalidArgument, "“\(name)” takes URI [replace|append] [{options}].") }
            guard let uri = words[0].ipcString, !uri.isEmpty else { throw IPCError(.invalidArgument, "“\(name)”: the file or URL must be a non-empty string.") }
            if words.count == 2 {
                switch words[1].ipcString {
                case "replace": return .load(uri, options: options)
                case "append", "append-play": return .append(uri, options: options)
                default: throw IPCError(.invalidArgument, "“\(name)”: the mode must be replace or append.")
                }
            }
            return .load(uri, options: options)
        case "append":
            var words = args
            let options = try itemOptions(&words, name)
            guard words.count == 1, let uri = words[0].ipcString, !uri.isEmpty else {
                throw IPCError(.invalidArgument, "“append” takes URI [{options}].")
            }
            return .append(uri, options: options)
        case "play": try arity(0...0); return .play
        case "pause": try arity(0...0); return .pause
        case "toggle", "cycle-pause": try arity(0...0); return .toggle
        case "stop": try arity(0...0); return .stop
        case "seek":
            try arity(1...3)
            let value = try number(0, "the target")
            var reference = IPCCommand.SeekReference.relative
            var mode = SeekMode.accurate
            // Flags joined by + (`absolute+exact`), or mpv's legacy form in two words (`absolute exact`).
            for word in args.dropFirst() {
                guard let flags = word.ipcString else { throw IPCError(.invalidArgument, "“seek”: the flags must be a string such as \"absolute\".") }
                for flag in flags.split(separator: "+") {
                    if let r = IPCCommand.SeekReference(rawValue: String(flag)) { reference = r }
                    else if flag == "exact" { mode = .accurate }
                    else if flag == "keyframes" { mode = .keyframe }
                    else { throw IPCError(.invalidArgument, "“seek”: unknown flag “\(flag)” (absolute, relative, absolute-percent, relative-percent, exact, keyframes).") }
                }
            }
            if reference == .absolutePercent && !(0...100).contains(value) {
                throw IPCError(.invalidArgument, "“seek”: a percentage must be 0–100.")
            }
            return .seek(value, reference, mode)
        case "skip":
            try arity(1...1)
            return .skip(try number(0, "the offset in seconds"))
        case "rate":
            try arity(1...1)
            let r = try number(0, "the rate")
            guard BoundedNumber.isPlayableRate(r) else { throw IPCError(.invalidArgument, "“rate”: the rate must be from 1/64 to 64 in size (negative plays backwards).") }
            return .rate(r)
        case "volume":
            try arity(1...1)
            return .volume(try IPCNumbers.volume(try number(0, "the volume")))
        case "mute":
            try arity(0...1)
            if args.isEmpty { return .mute(nil) }
            guard let b = args[0].ipcBool ?? args[0].ipcString.flatMap({ ["yes": true, "no": false, "true": true, "false": false][$0] }) else {
                throw IPCError(.invalidArgument, "“mute”: the argument must be true or false (none toggles).")
            }
            return .mute(b)
        case "next", "playlist-next": try arity(0...0); return .next
        case "previous", "playlist-prev": try arity(0...0); return .previous
        case "jump":
            try arity(1...1)
            guard let i = BoundedNumber.wholeNumber(try number(0, "the index")) else {
                throw IPCError(.invalidArgument, "“jump”: the index must be a whole number from 0 to \(Int32.max).")
            }
            return .jump(i)
        case "playlist-move":
            try arity(2...2)
            guard let from = BoundedNumber.wholeNumber(try number(0, "the item's index")), let to = BoundedNumber.wholeNumber(try number(1, "the place")) else {
                throw IPCError(.invalidArgument, "“playlist-move”: two indices, whole numbers from 0 (the item, and the item whose place it takes).")
            }
            return .move(from: from, to: to)
        case "playlist-remove":
            try arity(1...1)
            if args[0].ipcString == "current" { return .remove(nil) }
            guard let i = BoundedNumber.wholeNumber(try number(0, "the index")) else {
                throw IPCError(.invalidArgument, "“playlist-remove”: the item's index (a whole number from 0) or \"current\".")
            }
            return .remove(i)
        case "play-item", "load-item", "toggle-item":
            try arity(1...1)
            let action = IPCCommand.ItemAction(rawValue: name)!
            if let text = args[0].ipcString, Double(text) == nil {
                guard !text.isEmpty, text.count <= 64 else { throw IPCError(.invalidArgument, "“\(name)”: an item id is a short string.") }
                return .item(action, .id(text))
            }
            guard let i = BoundedNumber.wholeNumber(try number(0, "the index")) else {
                throw IPCError(.invalidArgument, "“\(name)”: give the item's index (a whole number from 0) or its id.")
            }
            return .item(action, .index(i))
        case "screenshot", "screenshot-to-file":
            try arity(0...2)
            var words = args
            var source = IPCCommand.CaptureSource.video
            if let last = words.last?.ipcString, let s = IPCCommand.CaptureSource(rawValue: last) {
                source = s
                words.removeLast()
            } else if words.last?.ipcString == "subtitles" {  // mpv's default flag: the video frame
                words.removeLast()
            }
            guard words.count <= 1 else { throw IPCError(.invalidArgument, "“screenshot” takes [FILE] [video|window].") }
            guard let first = words.first else { return .screenshot(path: nil, source: source) }
            guard let s = first.ipcString else { throw IPCError(.invalidArgument, "“screenshot”: the file must be a string.") }
            guard s.hasPrefix("/") else { throw IPCError(.invalidArgument, "“screenshot”: the file must be an absolute path.") }
            guard s.lowercased().hasSuffix(".png") else { throw IPCError(.invalidArgument, "“screenshot”: the file must end in .png.") }
            return .screenshot(path: s, source: source)
        case "quit":
            try arity(0...1)
            let code = args.isEmpty ? 0 : try number(0, "the exit status")
            guard let status = BoundedNumber.wholeNumber(code, in: 0...255) else { throw IPCError(.invalidArgument, "“quit”: the exit status must be 0–255.") }
            return .quit(Int32(status))
        case "get_property", "get_property_string":
            try arity(1...1)
            let p = try string(0, "the property name")
            return name == "get_property" ? .getProperty(p) : .getPropertyString(p)
        case "cycle":
            try arity(1...2)
            let p = try property(0, writable: true)
            guard args.count == 1 || ["up", "down"].contains(args[1].ipcString ?? "") else { throw IPCError(.invalidArgument, "“cycle” takes up or down after the property.") }
            return .cycle(p, backwards: args.count == 2 && args[1].ipcString == "down")
        case "add":
            try arity(1...2)
            let p = try property(0, writable: true)
            return .add(p, args.count == 2 ? try number(1, "the step") : nil)
        case "multiply":
            try arity(2...2)
            let p = try property(0, writable: true)
            return .multiply(p, try number(1, "the factor"))
        case "cycle-values":
            guard args.count >= 2 else { throw IPCError(.invalidArgument, "“cycle-values” takes a property and at least one value.") }
            var values = Array(args.dropFirst())
            if values.first?.ipcString == "!reverse" { values.removeFirst(); values.reverse() }
            guard !values.isEmpty else { throw IPCError(.invalidArgument, "“cycle-values” takes at least one value.") }
            return .cycleValues(try property(0, writable: true), values)
        case "set_property", "set_property_string", "set":
            try arity(2...2)
            return .setProperty(try string(0, "the property name"), args[1])
        case _ where IPCCommand.connectionNames.contains(name):
            return .connection(name, args)
        default:
            let shown = name.count > 40 ? String(name.prefix(40)) + "…" : name
            throw IPCError(.unknownCommand, "Unknown command “\(shown)” (known: \((IPCCommand.names + registered.sorted()).joined(separator: ", "))).")
        }
    }
}
