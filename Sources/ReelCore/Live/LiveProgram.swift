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
    /// Restart and catchup at the origin (`--timeshift-url`): a URL template with `{start}` and
    /// `{end}` (ISO 8601, UTC) or `{start_epoch}` and `{end_epoch}` (seconds since 1970), as AWS
    /// MediaPackage's `?start=…&end=…`. The origin then serves the programme itself (an end in the
    /// past: a VOD manifest; otherwise an event one beginning at the programme), and Reel edits
    /// nothing out; the modes, positions and events stay the same (`timeshiftedURL`).
    public var timeshift: String?
    /// The mode was decided when the item started (`decided(at:)`): it holds from then on.
    public private(set) var modeIsDecided = false

    public init(mode: LiveMode = .live, start: Date? = nil, end: Date? = nil, startOffset: Double? = nil, timeshift: String? = nil) {
        self.mode = mode
        self.start = start
        self.end = end
        self.startOffset = startOffset
        self.timeshift = timeshift
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
        public static let timeshift = "timeshift-url"
        public static let all = [mode, start, end, startOffset, timeshift]
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
        if let text = options[Option.timeshift]?.last {
            let template = text.trimmingCharacters(in: .whitespaces)
            guard template.contains("{start}") || template.contains("{start_epoch}") else {
                throw OptionError(option: prefix + Option.timeshift, message: "“\(text)” has no {start} (or {start_epoch}) for the origin to time-shift by")
            }
            guard template.hasPrefix("&") || URL(string: Self.expand(template, start: Date(timeIntervalSince1970: 0), end: nil)) != nil else {
                throw OptionError(option: prefix + Option.timeshift, message: "“\(text)” is not a URL (or a query to add to the item's: &start={start})")
            }
            program.timeshift = template
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
    /// Once the item started (`decided(at:)`) the mode holds: a restart whose programme ends
    /// while it plays goes on (`live-program-end` says so), it does not turn into a catchup
    /// cut at the programme's end.
    public func effectiveMode(at now: Date) -> LiveMode {
        if !modeIsDecided, mode == .restart, let end, end <= now { return .catchup }
        return mode
    }

    /// The programme as it plays from `now` on: its mode the one in force at `now`, kept.
    public func decided(at now: Date) -> LiveProgram {
        var program = self
        program.mode = effectiveMode(at: now)
        program.modeIsDecided = true
        return program
    }

    /// Whether the origin time-shifts (a `timeshift` template): Reel then edits no programme out.
    public var isAtOrigin: Bool { timeshift != nil }

    /// The URL to ask the origin for the programme, from the item's own `url`: nil for live
    /// playback or without a template. A template that begins with `&` is added to the item's
    /// query (its token, say, kept); any other is a URL, resolved against the item's (so
    /// `?start={start}&end={end}` asks the same path with that query). A placeholder without a
    /// value (`{end}` of a restart with no end) becomes empty.
    public func timeshiftedURL(for url: URL, now: Date) -> URL? {
        guard let timeshift, let start, effectiveMode(at: now) != .live else { return nil }
        let expanded = Self.expand(timeshift, start: start, end: end)
        if expanded.hasPrefix("&") {
            let text = url.absoluteString
            return URL(string: text + (url.query == nil ? "?" + expanded.dropFirst() : expanded))
        }
        return URL(string: expanded, relativeTo: url)?.absoluteURL
    }

    static func expand(_ template: String, start: Date, end: Date?) -> String {
        template.replacingOccurrences(of: "{start}", with: originDate(start))
            .replacingOccurrences(of: "{end}", with: end.map(originDate) ?? "")
            .replacingOccurrences(of: "{start_epoch}", with: String(Int(start.timeIntervalSince1970)))
            .replacingOccurrences(of: "{end_epoch}", with: end.map { String(Int($0.timeIntervalSince1970)) } ?? "")
    }

    /// ISO 8601 in UTC as origins take it: milliseconds only when there are any.
    public static func originDate(_ date: Date) -> String {
        let text = ProgramDate.format(date)
        return text.hasSuffix(".000Z") ? String(text.dropLast(5)) + "Z" : text
    }

    /// `{"start": ISO, "end": ISO}` values for the `program` property (nil without a start).
    public var isoStart: String? { start.map(ProgramDate.format) }
    public var isoEnd: String? { end.map(ProgramDate.format) }
}
