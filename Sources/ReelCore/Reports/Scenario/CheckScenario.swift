import Foundation

/// `reel check --scenario FILE`: what to do to each item, a line per action, as gst-validate's
/// scenarios say it (`seek 30`, `pause 2`, `expect position>=29.9`). Parsed here (pure, with the
/// line of every action), played by the check's `ScenarioRunner` on the item's player. The format
/// is docs/QA.md's "Scenarios"; `CheckScenario.builtIn` holds `seek-storm` and `track-switch`.
public struct CheckScenario: Sendable, Equatable {
    public enum Action: Sendable, Equatable {
        /// An exact seek (`accurate`), or to the keyframe before (`seek 30 keyframe`).
        case seek(CapturePosition, SeekMode)
        /// Pause, then wait this many seconds of wall time.
        case pause(Double)
        /// Play on for this many seconds of media (nil: just play).
        case play(Double?)
        case setRate(Double)
        /// `select audio fr`, `select sub none`, `select audio 1` (an index among that kind).
        case select(kind: TrackKind, choice: String)
        /// `quality 360p`, `quality 2`, `quality auto`: the rendition pinned.
        case quality(QualityChoice)
        /// Wait for an event of the engine (`rendition`, `seeked`, `end`…), at most `timeout` s.
        case waitEvent(String, timeout: Double)
        /// Wait this many seconds of wall time, playing or not.
        case wait(Double)
        /// Capture the frame on screen; `golden=NAME` names it (the golden comparison's key).
        case frame(name: String?)
        /// A property or a measure against a value.
        case expect(ScenarioExpectation)
        /// Any property, through the socket's road (`set volume 50`).
        case set(name: String, value: String)
        /// Play (as fast as the check decodes) to the end.
        case playToEnd
        /// `seek-storm 20`: that many exact seeks to random positions, each must land and show a frame.
        case seekStorm(count: Int, seed: UInt64)
        /// `switch-tracks`: every audio and subtitle track, then every rendition, once each.
        case switchTracks
    }

    public enum TrackKind: String, Sendable, Equatable { case audio, sub }

    public struct Step: Sendable, Equatable {
        /// 1-based line in the file.
        public var line: Int
        /// The line as written (comments and spaces trimmed).
        public var text: String
        public var action: Action
    }

    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public var line: Int
        public var message: String
        public var description: String { "line \(line): \(message)" }
    }

    /// The scenario's name (the file's, without its extension; a built-in's own).
    public var name: String
    /// Which items it is for: `items GLOB` lines (any of them matches; none: every item).
    public var itemPatterns: [String] = []
    public var steps: [Step]

    public static let maximumSteps = 10_000
    public static let maximumWait = 3600.0

    /// The built-in scenarios, by the name `--scenario` takes instead of a file.
    public static let builtIn: [String: String] = [
        "seek-storm": "# 20 exact seeks to random positions; each must land and show a frame.\nseek-storm 20\n",
        "track-switch": "# Every audio and subtitle track, then every rendition, once each.\nswitch-tracks\n",
    ]

    public func applies(to input: String) -> Bool {
        itemPatterns.isEmpty || itemPatterns.contains { GlobPattern.matches($0, input) || GlobPattern.matches($0, (input as NSString).lastPathComponent) }
    }

    public static func parse(_ text: String, name: String) throws -> CheckScenario {
        var scenario = CheckScenario(name: name, steps: [])
        for (offset, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = offset + 1
            var content = String(raw)
            if let hash = content.firstIndex(of: "#") { content = String(content[..<hash]) }
            content = content.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !content.isEmpty else { continue }
            guard scenario.steps.count < maximumSteps else { throw ParseError(line: line, message: "more than \(maximumSteps) actions") }
            let words = content.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            if words[0] == "items" {
                guard words.count >= 2 else { throw ParseError(line: line, message: "items takes a pattern such as *.m3u8") }
                scenario.itemPatterns += words.dropFirst()
                continue
            }
            scenario.steps.append(Step(line: line, text: content, action: try action(words, line: line)))
        }
        guard !scenario.steps.isEmpty else { throw ParseError(line: 1, message: "the scenario has no action") }
        return scenario
    }

    private static func action(_ words: [String], line: Int) throws -> Action {
        let args = Array(words.dropFirst())
        func fail(_ message: String) -> ParseError { ParseError(line: line, message: "\(words[0]): \(message)") }
        func seconds(_ text: String) throws -> Double {
            guard let s = TimeFormat.parse(text), s.isFinite, s >= 0, s <= maximumWait else { throw fail("“\(text.prefix(40))” is not a time in seconds (0 to \(Int(maximumWait)))") }
            return s
        }
        func count(_ n: Int) throws {
            guard args.count == n else { throw fail("takes \(n) argument(s), got \(args.count)") }
        }
        switch words[0] {
        case "seek":
            guard (1...2).contains(args.count), let at = CapturePosition.parse(args[0]) else { throw fail("takes a time (seconds, h:mm:ss or N%), then optionally keyframe") }
            if args.count == 2, args[1] != "keyframe", args[1] != "exact" { throw fail("the mode is exact or keyframe") }
            return .seek(at, args.count == 2 && args[1] == "keyframe" ? .keyframe : .accurate)
        case "pause":
            guard args.count <= 1 else { throw fail("takes the seconds to stay paused") }
            return .pause(try args.first.map(seconds) ?? 0)
        case "play":
            guard args.count <= 1 else { throw fail("takes the seconds of media to play") }
            return .play(try args.first.map(seconds))
        case "set-rate":
            try count(1)
            guard let r = Double(args[0]), r.isFinite, r != 0, abs(r) <= 64, abs(r) >= 1.0 / 64 else { throw fail("takes a rate from 1/64 to 64") }
            return .setRate(r)
        case "select":
            guard args.count == 2, let kind = TrackKind(rawValue: args[0] == "subtitle" ? "sub" : args[0]) else {
                throw fail("takes audio or sub, then a language, a title, an index or none")
            }
            return .select(kind: kind, choice: args[1])
        case "quality":
            try count(1)
            guard let q = QualityChoice(args[0]) else { throw fail("takes auto, a height such as 360p, or a rendition's index") }
            return .quality(q)
        case "wait":
            if args.first == "event" {
                guard args.count == 2 || (args.count == 4 && args[2] == "timeout") else { throw fail("wait event NAME [timeout SECONDS]") }
                return .waitEvent(args[1], timeout: args.count == 4 ? try seconds(args[3]) : 30)
            }
            try count(1)
            return .wait(try seconds(args[0]))
        case "frame":
            guard args.count <= 1 else { throw fail("takes at most golden=NAME") }
            guard let a = args.first else { return .frame(name: nil) }
            guard a.hasPrefix("golden="), a.count > 7, a.count <= 107 else { throw fail("takes golden=NAME") }
            return .frame(name: String(a.dropFirst(7)))
        case "expect":
            guard !args.isEmpty, let e = ScenarioExpectation.parse(args.joined(separator: " ")) else {
                throw fail("takes NAME OP VALUE, such as position>=29.9 (OP: == != < <= > >= ~=)")
            }
            return .expect(e)
        case "set":
            guard args.count >= 2 else { throw fail("takes a property and a value") }
            return .set(name: args[0], value: args.dropFirst().joined(separator: " "))
        case "play-to-end":
            try count(0)
            return .playToEnd
        case "seek-storm":
            guard args.count <= 2 else { throw fail("takes a count, then optionally seed=N") }
            let n = args.first.flatMap { Int($0) } ?? 20
            guard (1...1000).contains(n) else { throw fail("the count is 1 to 1000") }
            var seed: UInt64 = 1
            if args.count == 2 {
                guard args[1].hasPrefix("seed="), let s = UInt64(args[1].dropFirst(5)) else { throw fail("the seed is seed=N") }
                seed = s
            }
            return .seekStorm(count: n, seed: seed)
        case "switch-tracks":
            try count(0)
            return .switchTracks
        default:
            throw ParseError(line: line, message: "“\(words[0].prefix(40))” is not an action (seek, pause, play, set-rate, select, quality, wait, frame, expect, set, play-to-end, seek-storm, switch-tracks)")
        }
    }

    /// The positions a seek storm visits: `count` of them, spread at random over the item (never
    /// its last half second), the same for the same seed and duration.
    public static func stormPositions(count: Int, seed: UInt64, duration: Double) -> [Double] {
        var state = seed &+ 0x9E37_79B9_7F4A_7C15
        func next() -> Double {
            // SplitMix64: small, and the same on every machine.
            state = state &+ 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            return Double(z >> 11) / Double(1 << 53)
        }
        let span = max(0, duration - 0.5)
        return (0..<count).map { _ in (next() * span * 1000).rounded() / 1000 }
    }
}

/// `items GLOB` and the known problems' item patterns: `*` any run of characters, `?` one.
public enum GlobPattern {
    public static func matches(_ pattern: String, _ text: String) -> Bool {
        let p = Array(pattern.unicodeScalars), t = Array(text.unicodeScalars)
        var pi = 0, ti = 0, star = -1, mark = 0
        while ti < t.count {
            if pi < p.count, p[pi] == "?" || p[pi] == t[ti] {
                pi += 1; ti += 1
            } else if pi < p.count, p[pi] == "*" {
                star = pi; mark = ti; pi += 1
            } else if star >= 0 {
                pi = star + 1; mark += 1; ti = mark
            } else {
                return false
            }
        }
        while pi < p.count, p[pi] == "*" { pi += 1 }
        return pi == p.count
    }
}
