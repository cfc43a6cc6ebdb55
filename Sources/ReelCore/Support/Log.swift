import Foundation
import Synchronization

/// Reel's one log, on stderr. Two kinds of line:
/// - `say`: what the user must read (a warning, a failure of the command, a file written), always
///   written, as "reel: …" (or the command's own prefix);
/// - `debug`: the decisions Reel makes (the engine, the queue, the ABR rule, the gateway, hardware
///   decoding), off by default and turned on per area with `REEL_DEBUG`, as Clapper's and
///   GStreamer's `GST_DEBUG` are: `REEL_DEBUG=quality:4,gateway:5` or `REEL_DEBUG=*:4`
///   (levels 1 error … 5 trace; an area without a level is 4).
/// A second sink may take decisions too (`Log.attach`): the engine attaches GStreamer's debug
/// log, so that `GST_DEBUG=reel*:5` interleaves Reel's decisions with GStreamer's, as Clapper's
/// `clapper*` categories do.
/// Every line is redacted (`Redactor`): no token, header value or signed URL reaches stderr.
public enum Log {
    public enum Area: String, CaseIterable, Sendable {
        case engine, queue, quality, network, gateway, decoding, subtitles, app, ytdl
    }

    public enum Level: Int, Comparable, Sendable {
        case error = 1, warning, info, debug, trace
        public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
    }

    /// The levels `REEL_DEBUG` turns on, by area (`*` for all).
    public static func levels(from variable: String?) -> [Area: Level] {
        var levels: [Area: Level] = [:]
        for entry in (variable ?? "").split(separator: ",") {
            let parts = entry.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard let name = parts.first, !name.isEmpty else { continue }
            let level = parts.count > 1 ? Int(parts[1]).flatMap { Level(rawValue: min(5, max(1, $0))) } : .debug
            guard let level else { continue }
            if name == "*" {
                for area in Area.allCases { levels[area] = level }
            } else if let area = Area(rawValue: name.lowercased()) {
                levels[area] = level
            }
        }
        return levels
    }

    /// A second place decisions go (GStreamer's debug log): whether it takes `area` at `level`,
    /// and how it writes a (redacted) message.
    public struct Sink: Sendable {
        public var isOn: @Sendable (Area, Level) -> Bool
        public var write: @Sendable (Area, Level, String) -> Void
        public init(isOn: @escaping @Sendable (Area, Level) -> Bool, write: @escaping @Sendable (Area, Level, String) -> Void) {
            self.isOn = isOn
            self.write = write
        }
    }

    private struct State {
        var levels = Log.levels(from: ProcessInfo.processInfo.environment["REEL_DEBUG"])
        var write: @Sendable (String) -> Void = { line in FileHandle.standardError.write(Data(line.utf8)) }
        var sink: Sink?
    }
    private static let state = Mutex(State())

    /// Attaches a second sink for decisions (nil detaches it); returns the one it replaces.
    @discardableResult
    public static func attach(_ sink: Sink?) -> Sink? {
        state.withLock { s in
            defer { s.sink = sink }
            return s.sink
        }
    }

    /// Whether `area` logs at `level` (cheap: callers may skip building a message).
    public static func isOn(_ area: Area, _ level: Level) -> Bool {
        let (own, sink) = state.withLock { s in (s.levels[area].map { level <= $0 } ?? false, s.sink) }
        return own || (sink?.isOn(area, level) ?? false)
    }

    /// A line the user must read, always written: "prefix: message" (redacted).
    public static func say(_ message: String, prefix: String = "reel") {
        write(prefix.isEmpty ? message : "\(prefix): \(message)")
    }

    /// A decision, written when `REEL_DEBUG` turns its area on at `level` (redacted).
    public static func debug(_ area: Area, _ level: Level = .debug, _ message: @autoclosure () -> String) {
        let (own, sink) = state.withLock { s in (s.levels[area].map { level <= $0 } ?? false, s.sink) }
        let toSink = sink.map { $0.isOn(area, level) } ?? false
        guard own || toSink else { return }
        let text = message()
        if own { write("reel[\(area.rawValue)]: \(text)") }
        if toSink, let sink { sink.write(area, level, Redactor.redactText(text)) }
    }

    private static func write(_ line: String) {
        let out = state.withLock { $0.write }
        out(Redactor.redactText(line) + "\n")
    }

    /// Tests: where lines go, and which areas are on (nil: as `REEL_DEBUG` says).
    public static func redirect(_ write: (@Sendable (String) -> Void)?, levels: [Area: Level]? = nil) {
        state.withLock { s in
            s.write = write ?? { line in FileHandle.standardError.write(Data(line.utf8)) }
            s.levels = levels ?? Log.levels(from: ProcessInfo.processInfo.environment["REEL_DEBUG"])
        }
    }
}
