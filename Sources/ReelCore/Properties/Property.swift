import Foundation

/// One property of the socket, input.conf, the window's keys and MPRIS, declared once by the
/// component that owns its state (mpv's `mp_properties_base[]` row): its mpv name, its kind, how
/// it is read from the snapshot and, when writable, what setting it does. `get_property`,
/// `set_property`, `add`, `multiply`, `cycle`, `cycle-values`, `observe_property` and
/// `property-list` are written once over the kinds (`PropertyTable`); clamping and rounding live
/// in the kind, never in a `case` of the dispatcher.
@MainActor
public struct Property {
    public let name: String
    /// Other names it answers to (Reel's older ones: `position` for `time-pos`).
    public var aliases: [String] = []
    public let kind: PropertyKind
    /// One line for docs/SOCKET.md's table (generated: `PropertyDocs`).
    public var summary: String
    /// Who declared it (docs/SOCKET.md says it; a property belongs to one component).
    public var owner = ""
    /// The value now, read from the one snapshot of this turn.
    let read: (PlaybackSnapshot) throws -> JSONValue
    /// The setting, with a value the kind accepted; nil: read-only.
    let write: ((PropertyValue) throws -> Void)?
    /// What `add` does, when it is not arithmetic on the value (a chapter steps).
    public var step: ((Double) throws -> Void)?
    /// What `cycle` does, when it is not a flag flipped or a choice's next (a track cycles).
    public var cycle: ((_ backwards: Bool) throws -> Void)?
    /// The bounds `add` and `multiply` keep to when they depend on a setting (`volume-max`).
    public var bounds: ((PlaybackSnapshot) -> ClosedRange<Double>)?

    public var isWritable: Bool { write != nil }

    public init(_ name: String, kind: PropertyKind, summary: String, aliases: [String] = [],
                read: @escaping (PlaybackSnapshot) throws -> JSONValue, write: ((PropertyValue) throws -> Void)? = nil) {
        self.name = name
        self.kind = kind
        self.summary = summary
        self.aliases = aliases
        self.read = read
        self.write = write
    }
}

/// A value the kind accepted, as the property's setting receives it.
public enum PropertyValue: Sendable, Equatable {
    case flag(Bool)
    case word(String)
    /// nil: the number kind's word for none (`no`).
    case number(Double?)
    case text(String)
    case json(JSONValue)

    public var flag: Bool { if case .flag(let b) = self { b } else { false } }
    public var word: String { if case .word(let w) = self { w } else { "" } }
    public var number: Double { if case .number(let n?) = self { n } else { 0 } }
    public var optionalNumber: Double? { if case .number(let n) = self { n } else { nil } }
    public var whole: Int { Int(number) }
    public var optionalWhole: Int? { optionalNumber.map { Int($0) } }
    public var text: String { if case .text(let t) = self { t } else { "" } }
    public var json: JSONValue { if case .json(let j) = self { j } else { .null } }
}

/// What a property holds, and so what every verb does with it.
public enum PropertyKind: Sendable {
    /// yes/no: `cycle` flips it; `set` takes true, false, yes, no.
    case flag
    /// One word of a list: `cycle` goes to the next (`down`: the previous); any case is taken;
    /// `synonyms` maps other words (and yes/no) to one of them.
    case choice([String], synonyms: [String: String] = [:])
    case number(NumberSpec)
    /// A string (a number given is taken as its digits).
    case text
    /// Any JSON value (read-only ones mostly: lists and objects).
    case json

    /// Its name in docs and `property-list`-style listings.
    public var typeName: String {
        switch self {
        case .flag: "flag"
        case .choice: "choice"
        case .number(let n): n.whole ? "integer" : "number"
        case .text: "text"
        case .json: "JSON"
        }
    }

    /// What the property takes, for docs and error messages.
    public var takes: String {
        switch self {
        case .flag: "yes or no"
        case .choice(let words, _): words.joined(separator: ", ")
        case .number(let n): n.describe
        case .text: "a string"
        case .json: "a JSON value"
        }
    }
}

/// A number's rule: its range (nil: the setting checks it), whole or not, an angle's period, the
/// step `add` takes without one, the word for none, and whether `set` out of range is refused or
/// clamped.
public struct NumberSpec: Sendable {
    public var range: ClosedRange<Double>?
    public var whole = false
    public var wraps: Double?
    public var step = 1.0
    public var none: String?
    public var clampsOnSet = false
    public var unit = ""
    /// The least size a value may have (a rate: 1/64; 0 and its neighbours are refused).
    public var minimumMagnitude: Double?

    /// A playback rate: 1/64 to 64 in size, negative backwards (mpv's bounds; `BoundedNumber`).
    public static var rate: NumberSpec {
        var spec = NumberSpec(range: -BoundedNumber.rateMagnitude.upperBound...BoundedNumber.rateMagnitude.upperBound, step: 0.1)
        spec.minimumMagnitude = BoundedNumber.rateMagnitude.lowerBound
        return spec
    }

    public init(range: ClosedRange<Double>?, whole: Bool = false, wraps: Double? = nil, step: Double = 1, none: String? = nil,
                clampsOnSet: Bool = false, unit: String = "") {
        self.range = range
        self.whole = whole
        self.wraps = wraps
        self.step = step
        self.none = none
        self.clampsOnSet = clampsOnSet
        self.unit = unit
    }

    var describe: String {
        var text = whole ? "a whole number" : "a number"
        if let r = range {
            text += " from \(Self.format(r.lowerBound)) to \(Self.format(r.upperBound))"
        }
        if let least = minimumMagnitude { text += ", at least \(Self.format(least)) in size" }
        if !unit.isEmpty { text += " (\(unit))" }
        if let none { text += ", or \(none)" }
        return text
    }

    static func format(_ d: Double) -> String {
        d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d)
    }
}

extension PropertyKind {
    /// The value `set` takes for this kind, or the error mpv's clients expect: a value of the
    /// wrong type is `property-format` (mpv's "unsupported format for accessing property"), one
    /// out of range `invalid-argument`.
    func accept(_ value: JSONValue, name: String) throws -> PropertyValue {
        switch self {
        case .flag:
            if let b = value.ipcBool { return .flag(b) }
            switch value.ipcString?.lowercased() {
            case "yes", "true": return .flag(true)
            case "no", "false": return .flag(false)
            default: throw IPCError(.propertyFormat, "“\(name)” takes yes or no (true or false).")
            }
        case .choice(let words, let synonyms):
            let given: String? = value.ipcString ?? value.ipcBool.map { $0 ? "yes" : "no" }
                ?? value.ipcNumber.flatMap { BoundedNumber.wholeNumber($0, in: Int(Int32.min)...Int(Int32.max)) }.map(String.init)
            guard let given else { throw IPCError(.propertyFormat, "“\(name)” takes \(words.joined(separator: ", ")).") }
            if let word = words.first(where: { $0.lowercased() == given.lowercased() }) { return .word(word) }
            if let word = synonyms.first(where: { $0.key.lowercased() == given.lowercased() })?.value { return .word(word) }
            throw IPCError(.invalidArgument, "“\(name)” takes \(words.joined(separator: ", ")).")
        case .number(let spec):
            // mpv writes a track's none as `false` (`sid`, `secondary-sid`), and takes it back.
            if let none = spec.none, value == .null || value.ipcString?.lowercased() == none || value.ipcBool == false { return .number(nil) }
            guard let n = value.ipcNumber ?? value.ipcString.flatMap({ Double($0.trimmingCharacters(in: .whitespaces)) }) else {
                throw IPCError(.propertyFormat, "“\(name)” takes \(spec.describe).")
            }
            guard n.isFinite else { throw IPCError(.invalidArgument, "“\(name)” takes \(spec.describe), not \(n).") }
            var v = n
            if let r = spec.range, !r.contains(v) {
                guard spec.clampsOnSet else { throw IPCError(.invalidArgument, "“\(name)” takes \(spec.describe).") }
                v = min(r.upperBound, max(r.lowerBound, v))
            }
            if let least = spec.minimumMagnitude, abs(v) < least {
                throw IPCError(.invalidArgument, "“\(name)” must be from \(least) to \(spec.range.map { NumberSpec.format($0.upperBound) } ?? "any") in size (negative: backwards).")
            }
            if spec.whole {
                guard v == v.rounded(), abs(v) <= Double(Int32.max) else { throw IPCError(.invalidArgument, "“\(name)” takes \(spec.describe).") }
            }
            return .number(v)
        case .text:
            if let s = value.ipcString { return .text(s) }
            if let n = value.ipcNumber {
                guard let i = BoundedNumber.wholeNumber(n) else { throw IPCError(.invalidArgument, "“\(name)”: \(n) is not a whole number from 0 to \(Int32.max).") }
                return .text(String(i))
            }
            throw IPCError(.propertyFormat, "“\(name)” takes a string.")
        case .json:
            return .json(value)
        }
    }

    /// The value on the wire: a whole number as an integer, a fraction as a double.
    static func wire(_ n: Double?, whole: Bool) -> JSONValue {
        guard let n else { return .null }
        return whole && abs(n) < 9e15 ? .int(Int(n)) : .double(n)
    }
}

/// Declaring a property in one line, by its kind (the common shapes; `Property.init` for the rest).
extension Property {
    public static func flag(_ name: String, _ summary: String, aliases: [String] = [], get: @escaping (PlaybackSnapshot) -> Bool?,
                            set: ((Bool) throws -> Void)? = nil) -> Property {
        Property(name, kind: .flag, summary: summary, aliases: aliases, read: { get($0).map(JSONValue.bool) ?? .null },
                 write: set.map { s in { try s($0.flag) } })
    }

    public static func number(_ name: String, _ spec: NumberSpec, _ summary: String, aliases: [String] = [],
                              get: @escaping (PlaybackSnapshot) -> Double?, set: ((Double) throws -> Void)? = nil) -> Property {
        Property(name, kind: .number(spec), summary: summary, aliases: aliases, read: { PropertyKind.wire(get($0), whole: spec.whole) },
                 write: set.map { s in { try s($0.number) } })
    }

    /// A number that may be none (`spec.none`: a word such as `no`); the setting gets nil for it.
    public static func optionalNumber(_ name: String, _ spec: NumberSpec, _ summary: String, get: @escaping (PlaybackSnapshot) -> JSONValue,
                                      set: ((Double?) throws -> Void)? = nil) -> Property {
        Property(name, kind: .number(spec), summary: summary, read: get, write: set.map { s in { try s($0.optionalNumber) } })
    }

    public static func choice(_ name: String, _ words: [String], _ summary: String, synonyms: [String: String] = [:],
                              get: @escaping (PlaybackSnapshot) -> String?, set: ((String) throws -> Void)? = nil) -> Property {
        Property(name, kind: .choice(words, synonyms: synonyms), summary: summary, read: { get($0).map(JSONValue.string) ?? .null },
                 write: set.map { s in { try s($0.word) } })
    }

    public static func text(_ name: String, _ summary: String, aliases: [String] = [], get: @escaping (PlaybackSnapshot) -> String?) -> Property {
        Property(name, kind: .text, summary: summary, aliases: aliases, read: { get($0).map(JSONValue.string) ?? .null })
    }

    /// A read-only value of any shape.
    public static func value(_ name: String, _ summary: String, aliases: [String] = [], get: @escaping (PlaybackSnapshot) throws -> JSONValue) -> Property {
        Property(name, kind: .json, summary: summary, aliases: aliases, read: get)
    }

    /// The same property with its owner named (a component declaring several says it once).
    func owned(by owner: String) -> Property {
        var p = self
        if p.owner.isEmpty { p.owner = owner }
        return p
    }
}
