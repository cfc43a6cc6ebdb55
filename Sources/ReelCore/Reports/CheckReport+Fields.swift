import Foundation

/// report.json's item, field by field: each field's key, how it is written and how `reel check
/// merge` reads it back stand in one entry, in the order report.json lists them (docs/QA.md). A
/// new field is one entry; writer and reader cannot drift apart.
extension CheckReport.Item {
    struct Field {
        let key: String
        let write: (CheckReport.Item) -> JSONValue
        let read: (Any?, inout CheckReport.Item) -> Void

        /// A plain value that may be missing (null when nil).
        static func optional<T: ReportScalar>(_ key: String, _ path: WritableKeyPath<CheckReport.Item, T?>) -> Field {
            Field(key: key, write: { $0[keyPath: path]?.reportJSON ?? .null }, read: { $1[keyPath: path] = T(reportJSON: $0) })
        }

        /// A plain value always written (`fallback` when a report lacks it).
        static func value<T: ReportScalar>(_ key: String, _ path: WritableKeyPath<CheckReport.Item, T>, else fallback: T) -> Field {
            Field(key: key, write: { $0[keyPath: path].reportJSON }, read: { $1[keyPath: path] = T(reportJSON: $0) ?? fallback })
        }
    }

    /// Every field after the item's identity (index, input, uri, title, ok) and before its review.
    static var fields: [Field] {
        [.optional("duration", \.duration), .optional("width", \.width), .optional("height", \.height),
         .optional("videoCodec", \.videoCodec), .optional("audioCodec", \.audioCodec),
         .optional("videoDecoder", \.videoDecoder), .optional("audioDecoder", \.audioDecoder), .optional("hardware", \.hardwareDecoding),
         Field(key: "qoe", write: { $0.qoe?.json ?? .null }, read: { $1.qoe = PlaybackQoE(reportJSON: $0) }),
         .optional("container", \.container), .value("seekable", \.seekable, else: false), .value("live", \.live, else: false),
         .optional("timeToFirstFrame", \.timeToFirstFrame), .value("decodedToEnd", \.decodedToEnd, else: false),
         .value("checkSeconds", \.checkSeconds, else: 0),
         Field(key: "frames", write: { .array($0.frames.map(\.json)) },
               read: { $1.frames = ($0 as? [[String: Any]] ?? []).map(CheckReport.Frame.init(reportJSON:)) }),
         Field(key: "error", write: { $0.error.map(EventEncoder.errorObject) ?? .null }, read: { $1.error = PlaybackError(reportJSON: $0) }),
         Field(key: "watch", write: { $0.watch?.json ?? .null }, read: { $1.watch = CheckReport.Watch(reportJSON: $0) }),
         Field(key: "problems", write: { .array($0.problems.map(\.reportJSON)) },
               read: { $1.problems = ($0 as? [[String: Any]] ?? []).map(HLSProblem.init(reportJSON:)) }),
         Field(key: "scenario", write: { $0.scenario?.json ?? .null }, read: { $1.scenario = ScenarioRun(reportJSON: $0) }),
         Field(key: "known", write: { .array($0.knownProblems.map(\.json)) },
               read: { $1.knownProblems = ($0 as? [Any] ?? []).compactMap(KnownProblems.Outcome.init(reportJSON:)) })]
    }
}

/// A plain value report.json holds: written as itself, read back from JSONSerialization's objects.
protocol ReportScalar {
    var reportJSON: JSONValue { get }
    init?(reportJSON: Any?)
}

extension Double: ReportScalar {
    var reportJSON: JSONValue { .double(self) }
    init?(reportJSON value: Any?) {
        guard let number = value as? NSNumber else { return nil }
        self = number.doubleValue
    }
}

extension Int: ReportScalar {
    var reportJSON: JSONValue { .int(self) }
    init?(reportJSON value: Any?) {
        guard let number = value as? NSNumber else { return nil }
        self = number.intValue
    }
}

extension String: ReportScalar {
    var reportJSON: JSONValue { .string(self) }
    init?(reportJSON value: Any?) {
        guard let text = value as? String else { return nil }
        self = text
    }
}

extension Bool: ReportScalar {
    var reportJSON: JSONValue { .bool(self) }
    init?(reportJSON value: Any?) {
        guard let flag = value as? Bool else { return nil }
        self = flag
    }
}

// The parts of an item, each written and read back side by side.

extension CheckReport.Frame {
    var json: JSONValue {
        .object([("requested", .string(requested)), ("target", .optional(target)), ("time", .optional(time)),
                 ("file", .optional(file)), ("width", .optional(width)), ("height", .optional(height)),
                 ("problem", .optional(problem)), ("golden", golden?.json ?? .null)])
    }

    init(reportJSON f: [String: Any]) {
        self.init(requested: f["requested"] as? String ?? "?", target: Double(reportJSON: f["target"]), time: Double(reportJSON: f["time"]),
                  file: f["file"] as? String, width: Int(reportJSON: f["width"]), height: Int(reportJSON: f["height"]),
                  problem: f["problem"] as? String)
        if let g = f["golden"] as? [String: Any], let file = g["file"] as? String, let ssim = Double(reportJSON: g["ssim"]) {
            golden = CheckReport.Golden(file: file, ssim: ssim, worstTile: Double(reportJSON: g["worstTile"]) ?? ssim,
                                        psnr: Double(reportJSON: g["psnr"]), diff: g["diff"] as? String, same: g["same"] as? Bool ?? true)
        }
    }
}

extension CheckReport.Watch {
    init?(reportJSON value: Any?) {
        guard let w = value as? [String: Any] else { return nil }
        self.init(duration: Double(reportJSON: w["duration"]) ?? 0, variants: w["variants"] as? [String] ?? [],
                  reloads: Int(reportJSON: w["reloads"]) ?? 0, segmentsFetched: Int(reportJSON: w["segmentsFetched"]) ?? 0,
                  timeline: (w["timeline"] as? [[String: Any]] ?? []).map { p in
                      LiveWatch.Problem(at: Double(reportJSON: p["at"]) ?? 0, variant: p["variant"] as? String ?? "?",
                                        code: p["code"] as? String ?? "?",
                                        severity: HLSProblem.Severity(rawValue: p["severity"] as? String ?? "") ?? .error,
                                        message: p["message"] as? String ?? "")
                  }, format: w["format"] as? String ?? "hls")
    }
}

extension HLSProblem {
    var reportJSON: JSONValue {
        .object([("line", .optional(line)), ("severity", .string(severity.rawValue)), ("code", .string(code)),
                 ("message", .string(Redactor.redactText(message)))]
                + (figure.map { [("figure", $0.isFinite ? .double(($0 * 1000).rounded() / 1000) : .null)] } ?? [])
                + (link.map { [("link", .string(Redactor.redactURL($0)))] } ?? []))
    }

    init(reportJSON p: [String: Any]) {
        self.init(line: Int(reportJSON: p["line"]), severity: Severity(rawValue: p["severity"] as? String ?? "") ?? .error,
                  code: p["code"] as? String ?? "?", message: p["message"] as? String ?? "", figure: Double(reportJSON: p["figure"]))
        link = p["link"] as? String
    }
}

extension PlaybackQoE {
    init?(reportJSON value: Any?) {
        guard let q = value as? [String: Any] else { return nil }
        self.init()
        droppedFrames = Int(reportJSON: q["droppedFrames"]) ?? 0
        renderedFrames = Int(reportJSON: q["renderedFrames"]) ?? 0
        stalls = Int(reportJSON: q["stalls"]) ?? 0
        stallSeconds = Double(reportJSON: q["stallSeconds"]) ?? 0
        startupSeconds = Double(reportJSON: q["startupSeconds"])
        renditionSwitches = Int(reportJSON: q["renditionSwitches"]) ?? 0
        playSeconds = Double(reportJSON: q["playSeconds"]) ?? 0
        timeWeightedBitrate = Int(reportJSON: q["timeWeightedBitrate"])
        topBitrate = Int(reportJSON: q["topBitrate"])
    }
}

extension PlaybackError {
    /// An error as report.json holds it (`EventEncoder.errorObject`): its kind by its code.
    init?(reportJSON value: Any?) {
        guard let e = value as? [String: Any], let code = e["code"] as? String else { return nil }
        let kind = PlaybackErrorKind.allCases.first { PlaybackError(kind: $0, message: "").code == code } ?? .unknown
        self.init(kind: kind, message: e["message"] as? String ?? "", httpStatus: Int(reportJSON: e["httpStatus"]), uri: e["uri"] as? String)
    }
}
