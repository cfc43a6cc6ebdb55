import Foundation

/// Every property of a session, as its components declared them (`Property`), and the verbs over
/// them, written once over the kinds: `get`, `set`, `add`, `multiply`, `cycle`, `cycleValues`,
/// and the listing `property-list` answers. One per session, shared by the socket's and
/// input.conf's dispatchers, the window's keys and MPRIS (`IPCCommandRegistry.properties`).
@MainActor
public final class PropertyTable {
    private var byName: [String: Int] = [:]
    public private(set) var declared: [Property] = []
    /// Names under a prefix answered by a function (`playlist/N/filename`: mpv's paging).
    private var families: [(prefix: String, read: (String, PlaybackSnapshot) throws -> JSONValue?)] = []
    /// The snapshot the verbs read (the session's, taken once per turn).
    public var snapshot: () -> PlaybackSnapshot
    /// Told after every setting made through the table (the session's snapshot is made anew).
    public var onChange: () -> Void = {}

    public init(snapshot: @escaping () -> PlaybackSnapshot = { PlaybackSnapshot() }) {
        self.snapshot = snapshot
    }

    /// Declares properties (the owner's name goes to each). A name already taken is not replaced:
    /// the first owner keeps it.
    public func declare(_ owner: String, _ properties: [Property]) {
        for p in properties {
            let property = p.owned(by: owner)
            guard byName[property.name] == nil else { continue }
            declared.append(property)
            for name in [property.name] + property.aliases where byName[name] == nil { byName[name] = declared.count - 1 }
        }
    }

    /// A family of names under `prefix/`: `read` answers a full name, nil when it is not one.
    public func declareFamily(_ prefix: String, read: @escaping (String, PlaybackSnapshot) throws -> JSONValue?) {
        families.append((prefix, read))
    }

    public var isEmpty: Bool { declared.isEmpty }

    public func property(_ name: String) -> Property? { byName[name].map { declared[$0] } }

    /// mpv's `property-list`: every name, aliases included, in the order declared.
    public var names: [String] { declared.flatMap { [$0.name] + $0.aliases } }

    public func get(_ name: String) throws -> JSONValue {
        try get(name, in: snapshot())
    }

    public func get(_ name: String, in snapshot: PlaybackSnapshot) throws -> JSONValue {
        if let p = property(name) { return try p.read(snapshot) }
        for family in families where name.hasPrefix(family.prefix + "/") {
            if let value = try family.read(name, snapshot) { return value }
        }
        throw IPCError(.unknownProperty, "No property “\(Self.shown(name))” (see property-list).")
    }

    public func set(_ name: String, _ value: JSONValue) throws {
        let p = try writable(name)
        try p.write!(try p.kind.accept(value, name: name))
        onChange()
    }

    /// mpv's `add`: a number by a step (its spec's step when none), held to its range (or its
    /// period, for an angle) in floating point before any whole number is made (`Int(1e19)` traps).
    public func add(_ name: String, _ step: Double?) throws {
        let p = try writable(name)
        defer { onChange() }
        if let custom = p.step { return try custom(step ?? 1) }
        guard case .number(let spec) = p.kind else {
            throw IPCError(.invalidArgument, "“\(name)” is not a number to add to (cycle it instead).")
        }
        try change(p, spec, "add") { $0 + (step ?? spec.step) }
    }

    /// mpv's `multiply`: a number by a factor, bounded as `add`.
    public func multiply(_ name: String, _ factor: Double) throws {
        let p = try writable(name)
        guard case .number(let spec) = p.kind, p.step == nil else {
            throw IPCError(.invalidArgument, "“\(name)” is not a number to multiply.")
        }
        defer { onChange() }
        try change(p, spec, "multiply") { $0 * factor }
    }

    /// mpv's `cycle`: a flag flipped, a choice to its next (or previous) word; a property with its
    /// own cycle (a track, a chapter) does that.
    public func cycle(_ name: String, backwards: Bool = false) throws {
        let p = try writable(name)
        defer { onChange() }
        if let custom = p.cycle { return try custom(backwards) }
        let current = try p.read(snapshot())
        switch p.kind {
        case .flag:
            try p.write!(.flag(!(current.ipcBool ?? false)))
        case .choice(let words, _):
            let i = words.firstIndex { Self.sameValue(.string($0), current) } ?? (backwards ? 0 : words.count - 1)
            try p.write!(.word(words[(i + (backwards ? words.count - 1 : 1)) % words.count]))
        default:
            throw IPCError(.invalidArgument, "“\(name)” is not a flag or a choice to cycle\(current.ipcNumber != nil ? " (a number: use add)" : "").")
        }
    }

    /// mpv's `cycle-values`: the value after the current one in `values`, the first when it is not there.
    public func cycleValues(_ name: String, _ values: [JSONValue]) throws {
        _ = try writable(name)
        let current = try get(name)
        let i = values.firstIndex { Self.sameValue($0, current) }
        try set(name, i.map { values[($0 + 1) % values.count] } ?? values[0])
    }

    private func writable(_ name: String) throws -> Property {
        guard let p = property(name) else {
            if families.contains(where: { name.hasPrefix($0.prefix + "/") }), (try? get(name)) != nil {
                throw IPCError(.readOnlyProperty, "The property “\(Self.shown(name))” is read-only.")
            }
            throw IPCError(.unknownProperty, "No property “\(Self.shown(name))” (see property-list).")
        }
        guard p.isWritable else { throw IPCError(.readOnlyProperty, "The property “\(name)” is read-only.") }
        return p
    }

    private func change(_ p: Property, _ spec: NumberSpec, _ verb: String, _ f: (Double) -> Double) throws {
        let s = snapshot()
        guard let current = try p.read(s).ipcNumber else {
            throw IPCError(.unavailable, "“\(p.name)” has no value to \(verb) now.")
        }
        let raw = f(current)
        guard raw.isFinite else { throw IPCError(.invalidArgument, "“\(verb) \(p.name)”: the result is not a finite number.") }
        // Six decimals, as mpv prints them (0.1 + 0.2 is 0.3); numbers too large for that stay as they are.
        var next = abs(raw) < 1e9 ? (raw * 1e6).rounded() / 1e6 : raw
        if spec.whole { next = next.rounded() }
        if let period = spec.wraps {
            next = (next.truncatingRemainder(dividingBy: period) + period).truncatingRemainder(dividingBy: period)
        } else if let range = p.bounds?(s) ?? spec.range {
            next = min(range.upperBound, max(range.lowerBound, next))
        }
        // Through the kind as a set is (a rate of 0 is refused there), already within bounds.
        try p.write!(try p.kind.accept(spec.whole && abs(next) < 9e15 ? .int(Int(next)) : .double(next), name: p.name))
    }

    /// Whether two values are the same for `cycle-values` (numbers by value, words in any case).
    nonisolated public static func sameValue(_ a: JSONValue, _ b: JSONValue) -> Bool {
        if let x = a.ipcNumber ?? a.ipcString.flatMap(Double.init), let y = b.ipcNumber ?? b.ipcString.flatMap(Double.init) { return x == y }
        if let x = a.ipcBool ?? a.ipcString.flatMap({ ["yes": true, "no": false][$0.lowercased()] }),
           let y = b.ipcBool ?? b.ipcString.flatMap({ ["yes": true, "no": false][$0.lowercased()] }) { return x == y }
        if let x = a.ipcString, let y = b.ipcString { return x.lowercased() == y.lowercased() }
        return a == b
    }

    /// A name as an error message shows it (a client's long name is cut).
    static func shown(_ name: String) -> String { name.count > 60 ? String(name.prefix(60)) + "…" : name }
}
