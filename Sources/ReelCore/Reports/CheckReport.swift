import Foundation

/// The result of `reel check`: written as report.json (schema in docs/QA.md), rendered
/// as index.html (`CheckReportHTML`) and as a contact sheet. Version 1; change it compatibly.
public struct CheckReport: Sendable, Equatable {
    /// A frame captured at a requested position.
    public struct Frame: Sendable, Equatable {
        /// As asked for: "10%" or "2.5".
        public var requested: String
        /// The time Reel seeked to, in seconds.
        public var target: Double?
        /// The presentation time of the frame actually captured (its PTS), in seconds.
        public var time: Double?
        /// The PNG's file name, relative to the report directory; nil when no frame was captured.
        public var file: String?
        public var width: Int?
        public var height: Int?
        /// Why no frame was captured ("no video", "no duration for a percentage", …).
        public var problem: String?
        /// The comparison with the reference run's frame (`--golden`), when there was one.
        public var golden: Golden?
        public init(requested: String, target: Double? = nil, time: Double? = nil, file: String? = nil,
                    width: Int? = nil, height: Int? = nil, problem: String? = nil) {
            self.requested = requested; self.target = target; self.time = time; self.file = file
            self.width = width; self.height = height; self.problem = problem
        }
    }

    /// A frame against its golden frame (`reel check --golden`).
    public struct Golden: Sendable, Equatable {
        /// The golden frame, copied into the report (relative to its directory).
        public var file: String
        /// The mean SSIM, and its lowest over the picture's tiles (what the threshold is held to).
        public var ssim: Double
        public var worstTile: Double
        /// dB; nil for identical frames (infinite).
        public var psnr: Double?
        /// The new frame with the changed areas marked (relative to the report's directory).
        public var diff: String?
        /// Whether the worst tile's SSIM is at or above the threshold.
        public var same: Bool

        public init(file: String, ssim: Double, worstTile: Double, psnr: Double?, diff: String?, same: Bool) {
            self.file = file; self.ssim = ssim; self.worstTile = worstTile; self.psnr = psnr; self.diff = diff; self.same = same
        }

        var json: JSONValue {
            // Three decimals (report.json's numbers), rounded down: only identical frames read 1.0.
            .object([("file", .string(file)), ("ssim", .double((ssim * 1000 + 1e-9).rounded(.down) / 1000)),
                     ("worstTile", .double((worstTile * 1000 + 1e-9).rounded(.down) / 1000)),
                     ("psnr", .optional(psnr.map { ($0 * 100).rounded() / 100 })), ("diff", .optional(diff)), ("same", .bool(same))])
        }
    }

    /// A live item followed over time (`reel check --watch`).
    public struct Watch: Sendable, Equatable {
        /// Seconds watched.
        public var duration: Double
        public var variants: [String]
        public var reloads: Int
        public var segmentsFetched: Int
        /// What broke when, in order.
        public var timeline: [LiveWatch.Problem]
        /// "hls" (`LiveWatch`'s rules) or "dash" (`DASHLiveWatch`'s).
        public var format: String

        public init(duration: Double, variants: [String], reloads: Int, segmentsFetched: Int, timeline: [LiveWatch.Problem], format: String = "hls") {
            self.duration = duration; self.variants = variants; self.reloads = reloads; self.segmentsFetched = segmentsFetched; self.timeline = timeline
            self.format = format
        }

        /// The rules this watch held the stream to (a JUnit test case each).
        public var rules: [(code: String, source: String)] { format == "dash" ? DASHLiveWatch.rules : LiveWatch.rules }

        var json: JSONValue {
            .object([("format", .string(format)), ("duration", .double(duration)), ("variants", .array(variants.map { .string($0) })), ("reloads", .int(reloads)),
                     ("segmentsFetched", .int(segmentsFetched)),
                     ("timeline", .array(timeline.map { p in
                         .object([("at", .double((p.at * 10).rounded() / 10)), ("variant", .string(p.variant)), ("code", .string(p.code)),
                                  ("severity", .string(p.severity.rawValue)), ("message", .string(Redactor.redactText(p.message)))])
                     }))])
        }
    }

    public struct Item: Sendable, Equatable {
        public var index: Int
        /// What was given on the command line (or the playlist entry), redacted.
        public var input: String
        public var uri: String
        public var title: String
        public var duration: Double?
        public var width: Int?
        public var height: Int?
        public var videoCodec: String?
        public var audioCodec: String?
        /// The decoders that played the item (element factory names), and whether the video one
        /// is on hardware.
        public var videoDecoder: String?
        public var audioDecoder: String?
        public var hardwareDecoding: Bool?
        /// How it played (`PlaybackQoE`): frames, stalls, startup, rendition switches.
        public var qoe: PlaybackQoE?
        public var container: String?
        public var seekable: Bool
        public var live: Bool
        /// Seconds from load to the first frame at the video sink (preroll); nil when none arrived.
        public var timeToFirstFrame: Double?
        /// Whether the item was decoded to its end (false when that was not asked for, or it failed).
        public var decodedToEnd: Bool
        /// Wall-clock seconds spent on this item.
        public var checkSeconds: Double
        public var frames: [Frame]
        public var error: PlaybackError?
        /// What the stream checks found (HLS: the playlists against RFC 8216, bitrates against
        /// BANDWIDTH, keyframes at segment starts…); an error among them fails the item.
        public var problems: [HLSProblem] = []
        /// `--watch`: the live item over time (its problems are in `problems` too).
        public var watch: Watch?
        /// `reel review`: the person's verdict, note and marks (nil for `reel check`).
        public var review: ItemReview?
        /// `--scenario`: what was done to the item, step by step (its failures are in `problems`).
        public var scenario: ScenarioRun?
        /// `--known`: the known problems the item had (known) or no longer has (fixed).
        public var knownProblems: [KnownProblems.Outcome] = []
        public var ok: Bool { (error == nil || errorIsKnown) && !problems.contains { $0.severity == .error } }

        public init(index: Int, input: String, uri: String, title: String) {
            self.index = index; self.input = input; self.uri = uri; self.title = title
            seekable = false; live = false; decodedToEnd = false; checkSeconds = 0; frames = []
        }
    }

    public var items: [Item]
    public var positions: [String]
    public var generated: Date
    public var wallSeconds: Double
    public var contactSheet: String?
    /// `reel check merge` of reviews: items two reviewers judged differently.
    public var reviewConflicts: [ReviewConflict] = []
    /// `reel check merge`: items more than one shard reported (the later report's kept).
    public var retried: [Retried] = []

    public init(items: [Item], positions: [String], generated: Date = Date(), wallSeconds: Double = 0, contactSheet: String? = nil) {
        self.items = items; self.positions = positions; self.generated = generated; self.wallSeconds = wallSeconds; self.contactSheet = contactSheet
    }

    public var failedCount: Int { items.filter { !$0.ok }.count }
    /// The sum of the known durations, in seconds; a live item (no duration) counts what it played.
    public var mediaSeconds: Double { items.map { $0.duration ?? $0.qoe?.playSeconds ?? 0 }.reduce(0, +) }

    public var json: JSONValue {
        let iso = ISO8601DateFormatter()
        return .object([
            ("reel", .string("check")),
            ("version", .int(1)),
            ("generated", .string(iso.string(from: generated))),
            ("positions", .array(positions.map { .string($0) })),
            ("summary", .object([
                ("items", .int(items.count)), ("ok", .int(items.count - failedCount)), ("failed", .int(failedCount)),
                ("mediaSeconds", .double(mediaSeconds)), ("wallSeconds", .double(wallSeconds)),
                ("known", .int(items.reduce(0) { $0 + $1.knownProblems.filter { $0.state == .known }.count })),
                ("fixed", .int(items.reduce(0) { $0 + $1.knownProblems.filter { $0.state == .fixed }.count })),
            ])),
            ("contactSheet", .optional(contactSheet)),
            ("items", .array(items.map(Self.itemJSON))),
        ] + reviewFields + (retried.isEmpty ? [] : [("retried", .array(retried.map(\.json)))]))
    }

    /// A review's report also says how many items a person judged, failed, and where two disagreed.
    private var reviewFields: [(String, JSONValue)] {
        guard items.contains(where: { $0.review != nil }) || !reviewConflicts.isEmpty else { return [] }
        return [("review", .object([("judged", .int(items.filter { $0.review?.isJudged == true }.count)),
                                    ("passed", .int(items.filter { $0.review?.verdict == .pass }.count)),
                                    ("failed", .int(items.filter { $0.review?.verdict == .fail }.count)),
                                    ("conflicts", .array(reviewConflicts.map(\.json)))]))]
    }

    static func itemJSON(_ i: Item) -> JSONValue {
        .object([("index", .int(i.index)), ("input", .string(Redactor.redactURL(i.input))), ("uri", .string(Redactor.redactURL(i.uri))),
                 ("title", .string(i.title)), ("ok", .bool(i.ok))]
                + Item.fields.map { ($0.key, $0.write(i)) } + (i.review.map { [("review", $0.json)] } ?? []))
    }

    /// report.json's text: the one-line JSON plus a newline.
    public var jsonText: String { json.serialized() + "\n" }
}
