import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// What `reel inspect` says about a DASH MPD (ISO/IEC 23009-1): static or dynamic, its durations,
/// and per Period, AdaptationSet and Representation the attributes players choose by (bandwidth,
/// size, frame rate, codecs, language) and the segments — how they are addressed
/// (`SegmentTemplate` with a `SegmentTimeline` or a `@duration`, `SegmentList`, `SegmentBase`) and
/// how many of what duration. Attributes and segment information are inherited from the levels
/// above (§5.3.7, §5.3.9.1). Problems: no Representation, a Representation without `@bandwidth`
/// (mandatory, §5.3.5.2) or without segment information, segments that do not add up to the
/// Period's duration (more than one segment apart). Pure: the caller reads or fetches the bytes.
public enum DASHInspection {
    public struct Representation: Equatable, Sendable {
        public var id: String?
        public var bandwidth: Int?
        public var width: Int?, height: Int?
        public var frameRate: Double?
        public var codecs: String?
        /// "template-timeline", "template-duration", "list", "base", nil when there is none.
        public var addressing: String?
        /// Segments and their total duration (seconds); nil when the MPD does not say (a live
        /// template without an end, a single segment's byte ranges).
        public var segments: Int?
        public var segmentsDuration: Double?
    }

    public static func inspect(_ text: String, uri: String, name: String) -> (json: JSONValue, text: String, ok: Bool) {
        guard let document = try? MPDDocument.parse(text), let root = document.rootElement(), root.localName == "MPD" else {
            let message = "\(name): not a DASH MPD (no MPD element can be read)"
            return (.object([("type", .string("dash")), ("uri", .string(uri)), ("ok", .bool(false)),
                             ("error", EventEncoder.errorObject(PlaybackError(kind: .invalidPlaylist, message: message, uri: uri)))]),
                    "\(name)\n  error:     invalid-playlist: \(message)", false)
        }
        var problems: [HLSProblem] = []
        func problem(_ severity: HLSProblem.Severity, _ code: String, _ message: String) {
            problems.append(HLSProblem(line: nil, severity: severity, code: code, message: message))
        }
        let type = attribute(root, "type") ?? "static"
        if let violation = DASHNumber.violation(in: root) { problem(.error, "out-of-bounds", "\(violation): the MPD cannot be played") }
        let total = DASHNumber.seconds(root, "mediaPresentationDuration")
        var lines = ["\(name)", "  DASH \(type)\(total.map { ", " + TimeFormat.clock($0) } ?? "")"]
        var periodsJSON: [JSONValue] = []
        var representationCount = 0
        let periods = children(root, "Period")
        for (p, period) in periods.enumerated() {
            let start = DASHNumber.seconds(period, "start")
            let nextStart = p + 1 < periods.count ? DASHNumber.seconds(periods[p + 1], "start") : nil
            let duration = DASHNumber.seconds(period, "duration")
                ?? nextStart.flatMap { n in start.map { n - $0 } } ?? (periods.count == 1 ? total.map { $0 - (start ?? 0) } : nil)
            var setsJSON: [JSONValue] = []
            for set in children(period, "AdaptationSet") {
                let content = attribute(set, "contentType") ?? attribute(set, "mimeType")?.split(separator: "/").first.map(String.init)
                    ?? children(set, "Representation").first.flatMap { attribute($0, "mimeType")?.split(separator: "/").first.map(String.init) }
                var repsJSON: [JSONValue] = []
                for rep in children(set, "Representation") {
                    representationCount += 1
                    let r = representation(rep, set: set, period: period, periodDuration: duration, live: type == "dynamic")
                    let label = r.id ?? "?"
                    if r.bandwidth == nil { problem(.error, "missing-bandwidth", "Representation \(label) has no @bandwidth (mandatory, ISO/IEC 23009-1 §5.3.5.2)") }
                    if r.addressing == nil, children(rep, "BaseURL").isEmpty, children(set, "BaseURL").isEmpty, children(period, "BaseURL").isEmpty, children(root, "BaseURL").isEmpty {
                        problem(.error, "no-segment-information", "Representation \(label) has no SegmentTemplate, SegmentList, SegmentBase or BaseURL")
                    }
                    if type == "static", let d = duration, let got = r.segmentsDuration, let n = r.segments, n > 0, abs(got - d) > got / Double(n) + 0.001 {
                        problem(.warning, "duration-mismatch", String(format: "Representation %@: its %d segments last %.3f s, the Period %.3f s", label, n, got, d))
                    }
                    repsJSON.append(.object([
                        ("id", .optional(r.id)), ("bandwidth", .optional(r.bandwidth)), ("width", .optional(r.width)), ("height", .optional(r.height)),
                        ("frameRate", .optional(r.frameRate)), ("codecs", .optional(r.codecs)), ("addressing", .optional(r.addressing)),
                        ("segments", .optional(r.segments)), ("segmentsDuration", .optional(r.segmentsDuration)),
                    ]))
                    var line = "    \(content ?? "?") \(label): \(r.bandwidth.map { "\($0 / 1000) kbit/s" } ?? "no bandwidth")"
                    if let w = r.width, let h = r.height { line += ", \(w)x\(h)" }
                    if let c = r.codecs { line += ", \(c)" }
                    if let n = r.segments { line += ", \(n) segments" + (r.segmentsDuration.map { String(format: " (%.3f s)", $0) } ?? "") }
                    lines.append(line)
                }
                setsJSON.append(.object([("id", .optional(attribute(set, "id"))), ("contentType", .optional(content)),
                                         ("lang", .optional(attribute(set, "lang"))), ("representations", .array(repsJSON))]))
            }
            periodsJSON.append(.object([("id", .optional(attribute(period, "id"))), ("start", .optional(start)), ("duration", .optional(duration)),
                                        ("adaptationSets", .array(setsJSON))]))
        }
        if representationCount == 0 { problem(.error, "no-representations", "the MPD has no Representation to play") }
        let ok = !problems.contains { $0.severity == .error }
        for p in problems { lines.append("  \(p.severity == .error ? "problem" : "warning"): \(p.description)") }
        let json: JSONValue = .object([
            ("type", .string("dash")), ("uri", .string(uri)), ("ok", .bool(ok)), ("mpdType", .string(type)),
            ("duration", .optional(total)), ("minBufferTime", .optional(DASHNumber.seconds(root, "minBufferTime"))),
            ("availabilityStartTime", .optional(attribute(root, "availabilityStartTime"))),
            ("timeShiftBufferDepth", .optional(DASHNumber.seconds(root, "timeShiftBufferDepth"))),
            ("periods", .array(periodsJSON)),
            ("problems", .array(problems.map { p in
                .object([("line", .null), ("severity", .string(p.severity.rawValue)), ("code", .string(p.code)), ("message", .string(p.message))])
            })),
        ])
        return (json, lines.joined(separator: "\n"), ok)
    }

    /// A Representation with what it inherits, and its segments.
    static func representation(_ rep: XMLElement, set: XMLElement, period: XMLElement, periodDuration: Double?, live: Bool) -> Representation {
        func value(_ name: String) -> String? { attribute(rep, name) ?? attribute(set, name) }
        var r = Representation()
        r.id = attribute(rep, "id")
        r.bandwidth = DASHNumber.integer(rep, "bandwidth")
        r.width = DASHNumber.integer(rep, "width") ?? DASHNumber.integer(set, "width")
        r.height = DASHNumber.integer(rep, "height") ?? DASHNumber.integer(set, "height")
        r.frameRate = value("frameRate").flatMap(DASHManifest.frameRate)
        r.codecs = value("codecs")
        // The nearest level that says how segments are addressed (§5.3.9.1); a template's
        // attributes and timeline merge down the levels above it.
        let levels = [rep, set, period]
        guard let nearest = levels.firstIndex(where: { level in
            ["SegmentTemplate", "SegmentList", "SegmentBase"].contains { !children(level, $0).isEmpty }
        }) else {
            if !children(rep, "BaseURL").isEmpty {
                r.addressing = "base"
                r.segments = 1
            }
            return r
        }
        let level = levels[nearest]
        if !children(level, "SegmentTemplate").isEmpty {
            let templates = levels[nearest...].compactMap { children($0, "SegmentTemplate").first }
            func templateValue(_ name: String) -> String? { templates.lazy.compactMap { attribute($0, name) }.first }
            let timescale = DASHNumber.timescale(templates)
            if let timeline = templates.lazy.compactMap({ children($0, "SegmentTimeline").first }).first {
                r.addressing = "template-timeline"
                // Counted, not listed (limit 0): a run of 2^31 segments is one addition.
                let walk = DASHTimeline.walk(timeline, startNumber: 1, openEnd: periodDuration.map { $0 * timescale }, window: .init(limit: 0))
                if let count = walk.count {
                    r.segments = count
                    r.segmentsDuration = walk.ticks / timescale
                }
            } else if let d = templates.lazy.compactMap({ DASHNumber.read($0, "duration", .positiveTicks) }).first {
                r.addressing = "template-duration"
                if !live, let total = periodDuration {
                    r.segments = Int(min(DASHNumber.maximumTicks, max(1, (total * timescale / d - 1e-9).rounded(.up))))
                    r.segmentsDuration = total
                }
            } else {
                r.addressing = "template"
            }
        } else if let list = children(level, "SegmentList").first {
            r.addressing = "list"
            r.segments = children(list, "SegmentURL").count
            if let d = DASHNumber.read(list, "duration", .positiveTicks) {
                let timescale = DASHNumber.read(list, "timescale", .timescale) ?? 1
                r.segmentsDuration = Double(r.segments ?? 0) * d / timescale
            }
        } else {
            r.addressing = "base"
            r.segments = 1
        }
        return r
    }

    /// An xs:duration ("PT1M30.5S", "P1DT2H", "PT0S") in seconds; nil when it is not one.
    public static func isoDuration(_ text: String) -> Double? {
        var rest = Substring(text.trimmingCharacters(in: .whitespaces))
        var sign = 1.0
        if rest.first == "-" { sign = -1; rest = rest.dropFirst() }
        guard rest.first == "P" else { return nil }
        rest = rest.dropFirst()
        var seconds = 0.0, inTime = false, number = "", sawValue = false
        for c in rest {
            if c == "T" {
                guard !inTime, number.isEmpty else { return nil }
                inTime = true
                continue
            }
            if c.isASCII, c.isNumber || c == "." {
                number.append(c)
                continue
            }
            guard let v = Double(number) else { return nil }
            number = ""
            sawValue = true
            switch (c, inTime) {
            case ("Y", false): seconds += v * 365 * 86_400
            case ("M", false): seconds += v * 30 * 86_400
            case ("W", false): seconds += v * 7 * 86_400
            case ("D", false): seconds += v * 86_400
            case ("H", true): seconds += v * 3600
            case ("M", true): seconds += v * 60
            case ("S", true): seconds += v
            default: return nil
            }
        }
        guard number.isEmpty, sawValue else { return nil }
        return sign * seconds
    }

    static func attribute(_ element: XMLElement, _ name: String) -> String? {
        DASHManifestRewriter.attribute(element, name)?.stringValue
    }

    static func children(_ element: XMLElement, _ name: String) -> [XMLElement] {
        (element.children ?? []).compactMap { $0 as? XMLElement }.filter { $0.localName == name }
    }
}
