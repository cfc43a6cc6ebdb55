import Foundation

/// What a live item should play: its mode and programme (`--live-mode`, `--program-start`,
/// `--program-end`, `--start-offset`; the entry options `live-mode`, `program-start`,
/// `program-end`, `start-offset`; the socket's `load`/`append` options).
public struct LiveProgram: Sendable, Equatable {
    public var mode: LiveMode
    public var start: Date?
    public var end: Date?
    /// Seconds after the window's start (restart: the programme start) to begin at.
    public var startOffset: Double?

    public init(mode: LiveMode = .live, start: Date? = nil, end: Date? = nil, startOffset: Double? = nil) {
        self.mode = mode
        self.start = start
        self.end = end
        self.startOffset = startOffset
    }

    /// An option that cannot be honoured; `option` is its name as the user wrote it.
    public struct OptionError: Error, Sendable, Equatable, CustomStringConvertible {
        public var option: String
        public var message: String
        public init(option: String, message: String) { self.option = option; self.message = message }
        public var description: String { "\(option): \(message)" }
    }

    /// The option names, as entry options (the command line adds `--`).
    public enum Option {
        public static let mode = "live-mode"
        public static let start = "program-start"
        public static let end = "program-end"
        public static let startOffset = "start-offset"
        public static let all = [mode, start, end, startOffset]
    }

    /// Whether any of the live options is given.
    public static func isGiven(in options: [String: [String]]) -> Bool { Option.all.contains { options[$0]?.last != nil } }

    /// Reads the options (the last value of each wins), falling back to `base` for those not
    /// given, and checks the whole: restart needs a start, catchup a start and an end, an end
    /// must follow its start, an offset is a number ≥ 0. `prefix` goes before option names in
    /// errors (`--` on the command line).
    public static func parse(_ options: [String: [String]], base: LiveProgram? = nil, prefix: String = "") throws(OptionError) -> LiveProgram? {
        guard isGiven(in: options) || base != nil else { return nil }
        var program = base ?? LiveProgram()
        if let text = options[Option.mode]?.last {
            guard let mode = LiveMode(rawValue: text.lowercased()) else {
                throw OptionError(option: prefix + Option.mode, message: "“\(text)” is not a live mode (live, restart or catchup)")
            }
            program.mode = mode
        }
        if let text = options[Option.start]?.last {
            guard let date = ProgramDate.parse(text) else {
                throw OptionError(option: prefix + Option.start, message: "“\(text)” is not an ISO 8601 date-time with a zone (2026-11-24T20:00:00Z)")
            }
            program.start = date
        }
        if let text = options[Option.end]?.last {
            guard let date = ProgramDate.parse(text) else {
                throw OptionError(option: prefix + Option.end, message: "“\(text)” is not an ISO 8601 date-time with a zone (2026-11-24T22:00:00Z)")
            }
            program.end = date
        }
        if let text = options[Option.startOffset]?.last {
            guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite, value >= 0, value < 1e7 else {
                throw OptionError(option: prefix + Option.startOffset, message: "“\(text)” is not a number of seconds ≥ 0")
            }
            program.startOffset = value
        }
        try program.validate(prefix: prefix)
        return program
    }

    /// Checks that the mode has what it needs.
    public func validate(prefix: String = "") throws(OptionError) {
        switch mode {
        case .live: break
        case .restart:
            guard start != nil else { throw OptionError(option: prefix + Option.start, message: "restart needs the programme start (\(prefix)\(Option.start))") }
        case .catchup:
            guard start != nil else { throw OptionError(option: prefix + Option.start, message: "catchup needs the programme start (\(prefix)\(Option.start))") }
            guard end != nil else { throw OptionError(option: prefix + Option.end, message: "catchup needs the programme end (\(prefix)\(Option.end))") }
        }
        if let start, let end, end <= start {
            throw OptionError(option: prefix + Option.end, message: "the programme end (\(ProgramDate.format(end))) must follow its start (\(ProgramDate.format(start)))")
        }
    }

    /// The mode that applies at `now`: a programme whose end has passed plays as catchup in
    /// restart mode too (seed 000's event rule: a finished event is VOD).
    public func effectiveMode(at now: Date) -> LiveMode {
        if mode == .restart, let end, end <= now { return .catchup }
        return mode
    }

    /// `{"start": ISO, "end": ISO}` values for the `program` property (nil without a start).
    public var isoStart: String? { start.map(ProgramDate.format) }
    public var isoEnd: String? { end.map(ProgramDate.format) }
}
