import ArgumentParser
import Foundation
import ReelCore

/// `reel check PLAYLIST|FILE|URL... --report DIR`: a headless QA pass over every item.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check files, URLs and playlists headless and write a report (report.json, contact-sheet.png, index.html).",
        discussion: """
        Nothing plays in real time: each item is decoded as fast as the machine allows. The exit \
        status is 0 when every item passed, 1 when any failed. Many machines: --shard K/N on each, \
        then `reel check merge DIR... --report OUT`.
        """)

    @Argument(help: "Files, URLs or playlists to check, in order.")
    var inputs: [String] = []

    @Option(help: ArgumentHelp("The report directory (created if needed).", valueName: "DIR"))
    var report: String?

    @Option(help: ArgumentHelp("Where to capture frames: seconds, h:mm:ss or percentages, comma-separated.", valueName: "POSITIONS"))
    var at: String = "10%,50%,90%"

    @Option(help: ArgumentHelp("Frame file names (tokens: {index}, {index:03}, {title}, {position}, {ms}).", valueName: "TEMPLATE"))
    var frameName: String = CaptureFileName.defaultTemplate

    @Flag(help: "Only capture frames; do not decode each item to its end.")
    var framesOnly = false

    @Option(help: ArgumentHelp("Give up on an item after this many seconds.", valueName: "SECONDS"))
    var itemTimeout: Double = 60

    @Option(help: ArgumentHelp("A local file that does not open within this many seconds counts as damaged.", valueName: "SECONDS"))
    var openTimeout: Double = 3

    @Flag(help: "Print nothing on stderr while checking.")
    var quiet = false

    @Option(help: ArgumentHelp("HLS masters and DASH MPDs: auto (the stream as a player plays it) or all (every variant or video Representation played alone, checked and photographed at the same positions, a row each).", valueName: "auto|all"))
    var renditions: String = "auto"

    @Flag(help: "Check every item's photographed frames for black and frozen pictures and its sound for silence (as --renditions all does for each rendition).")
    var pictureAudit = false

    @Option(help: ArgumentHelp("Hardware video decoding: auto or no, as for `reel play` (the report names each item's decoders).", valueName: "auto|no"))
    var hwdec: String = "auto"

    @Option(help: ArgumentHelp("Decode into this video sink (a GStreamer element description) instead of a fake one; it should keep its last frame (enable-last-sample) for the photos. The check sets its sync, and while a scenario plays, its lateness as a display's: what it cannot show in time counts as dropped.", valueName: "DESCRIPTION"))
    var videoSink: String?

    @Option(help: ArgumentHelp("Also write the report as JUnit XML (one testcase per item) to FILE.", valueName: "FILE"))
    var junit: String?

    @Option(help: ArgumentHelp("Check only shard K of N (item i belongs to shard i mod N + 1, or as --plan says); auto: K and N from JOB_COMPLETION_INDEX and JOB_COMPLETIONS, CI_NODE_INDEX and CI_NODE_TOTAL, AWS_BATCH_JOB_ARRAY_INDEX and AWS_BATCH_JOB_ARRAY_SIZE, PARALLEL_SEQ or REEL_SHARD_INDEX with REEL_SHARD_COUNT. Join the shards' reports with `reel check merge`.", valueName: "K/N|auto"))
    var shard: String?

    @Option(help: ArgumentHelp("With --shard: the items of each shard as `reel check plan` wrote them (weighted by a previous report).", valueName: "FILE"))
    var plan: String?

    @Option(help: ArgumentHelp("`reel check plan`: how many shards.", valueName: "N"))
    var shards: Int?

    @Option(help: ArgumentHelp("`reel check plan`: a previous report (report.json or its directory) whose items' check times weight the plan.", valueName: "REPORT"))
    var weights: String?

    @Option(help: ArgumentHelp("Play a scenario on each item after its frames (a file of actions, docs/QA.md; or seek-storm, track-switch). Repeatable: the first whose `items` patterns match an item is played on it.", valueName: "FILE|NAME"))
    var scenario: [String] = []

    @Option(help: ArgumentHelp("Fail an item whose first frame came later than this after the load.", valueName: "SECONDS"))
    var maxStartup: Double?

    @Option(help: ArgumentHelp("Fail an item that dropped more than this percentage of its frames.", valueName: "PCT"))
    var maxDropped: Double?

    @Option(help: ArgumentHelp("Fail an item that stalled more than this many times once playing.", valueName: "N"))
    var maxStalls: Int?

    @Option(help: ArgumentHelp("Fail an item whose rebuffering ratio (stalled over stalled and playing time) is above this percentage.", valueName: "PCT"))
    var maxRebufferRatio: Double?

    @Option(help: ArgumentHelp("Fail an adaptive item whose time-weighted bitrate is below this percentage of its top rendition's.", valueName: "PCT"))
    var minBitrateRatio: Double?

    @Option(help: ArgumentHelp("Known problems: a line each, ITEMS CODE [max=BOUND] [sometimes] [LINK]; a known one is reported as known (not a failure), one that no longer happens as fixed.", valueName: "FILE"))
    var known: String?

    @Option(help: ArgumentHelp("Compare every frame with the frame of the same item (by its input) and position in DIR, a previous run's report directory: SSIM and PSNR on luma; below --golden-threshold is a problem, with a diff image.", valueName: "DIR"))
    var golden: String?

    @Option(help: ArgumentHelp("The SSIM below which a frame differs from its golden frame (0–1).", valueName: "SSIM"))
    var goldenThreshold: Double = GoldenFrames.defaultThreshold

    @Option(help: ArgumentHelp("Leave this rectangle of the frame (in its pixels) out of the golden comparison: what may move between runs (a clock, a counter). Repeatable.", valueName: "X,Y,W,H"))
    var goldenMask: [String] = []

    @Option(help: ArgumentHelp("Hold this rectangle of the frame to its own SSIM threshold, apart from the rest. Repeatable.", valueName: "X,Y,W,H:SSIM"))
    var goldenRegion: [String] = []

    @Flag(help: "Make this run's frames the reference in --golden DIR instead of comparing with it.")
    var updateGolden = false

    @Option(help: ArgumentHelp("Follow each live HLS item or live MPD for this many seconds: every variant (or the MPD) reloaded as a player does, every new segment fetched; staleness, media and discontinuity sequences, PROGRAM-DATE-TIME against the wall clock and between variants, unavailable segments and lagging variants, with their times.", valueName: "SECONDS"))
    var watch: Double?

    @Option(help: ArgumentHelp("While watching, photograph the picture (and measure the sound) every SECONDS: black, frozen and silent over time, the photos in the report; 0: never.", valueName: "SECONDS"))
    var watchFrames: Double = 10

    /// The same options as `reel play`: protected network items are checked through the gateway,
    /// so headers and tokens reach every request of an HLS stream, not only the first.
    @OptionGroup(title: "Protected streams") var protected: ProtectedStreamOptions

    func validate() throws {
        let inputs = protected.effectiveInputs(inputs)  // `--replay DIR` alone: the recording's
        if inputs.isEmpty { throw ValidationError("Give at least one FILE, URL or playlist to check.") }
        _ = try protected.settings(inputs: inputs)
        _ = try goldenMasks()
        _ = try goldenRegions()
        if CapturePosition.parseList(at) == nil { throw ValidationError("--at: '\(at)' is not a list of seconds or percentages such as 10%,50%,90%.") }
        do { try CaptureFileName.validate(frameName) } catch { throw ValidationError("--frame-name: \(error)") }
        if !(itemTimeout > 0) { throw ValidationError("--item-timeout must be positive.") }
        if !(openTimeout > 0) { throw ValidationError("--open-timeout must be positive.") }
        if inputs.first == "plan" {  // `reel check plan LIST --shards N [--weights REPORT]`
            guard let shards, (1...10_000).contains(shards) else { throw ValidationError("reel check plan: --shards N, from 1 to 10000.") }
            return
        }
        if report == nil { throw ValidationError("Missing expected argument '--report <DIR>'") }
        if inputs.first == "merge" { return }  // `reel check merge DIR… --report OUT` (CheckMerge)
        if !["auto", "all"].contains(renditions) { throw ValidationError("--renditions: auto or all.") }
        if HardwareDecodingMode(argument: hwdec) == nil { throw ValidationError("--hwdec: auto or no.") }
        if let shard, shard != "auto", CheckShard(shard) == nil { throw ValidationError("--shard: '\(shard)' is not K/N with 1 ≤ K ≤ N, or auto.") }
        if plan != nil, shard == nil { throw ValidationError("--plan: say which shard with --shard K/N or auto.") }
        _ = try scenarios()
        _ = try thresholds()
        _ = try knownProblems()
        if let watch, !(watch > 0 && watch <= 86_400) { throw ValidationError("--watch: seconds, more than 0 and at most a day.") }
        if !(watchFrames >= 0 && watchFrames <= 86_400) { throw ValidationError("--watch-frames: seconds from 0 (never).") }
        if updateGolden, golden == nil { throw ValidationError("--update-golden: say where with --golden DIR.") }
        if !(0...1).contains(goldenThreshold) { throw ValidationError("--golden-threshold: an SSIM from 0 to 1.") }
    }

    func run() throws {
        let inputs = protected.effectiveInputs(inputs)
        if inputs.first == "plan" {
            try CheckPlanCommand(inputs: Array(inputs.dropFirst()), shards: shards ?? 1, weights: weights, protected: protected, renditions: renditions == "all").run()
            return
        }
        let report = self.report ?? "."
        if inputs.first == "merge" {
            try CheckMerge(directories: Array(inputs.dropFirst()), report: report, junit: junit).run()
            return
        }
        let quiet = self.quiet
        let shard: CheckShard?
        do { shard = try self.shard.map { $0 == "auto" ? try Self.autoShard(quiet: quiet) : CheckShard($0)! } } catch {
            Log.say("--shard auto: \(error)", prefix: "reel check")
            throw ExitCode(2)
        }
        let plan: CheckPlan?
        do { plan = try self.plan.map { try CheckPlan.decode(Data(contentsOf: URL(fileURLWithPath: $0))) } } catch {
            Log.say("--plan: \(error)", prefix: "reel check")
            throw ExitCode(2)
        }
        if let plan, let shard, plan.shards.count != shard.count {
            Log.say("--plan has \(plan.shards.count) shards, --shard says \(shard)", prefix: "reel check")
            throw ExitCode(2)
        }
        let options = CheckRunner.Options(
            inputs: inputs, reportDirectory: URL(fileURLWithPath: report, isDirectory: true),
            positions: CapturePosition.parseList(at) ?? CapturePosition.defaults, template: frameName,
            decodeToEnd: !framesOnly, itemTimeout: itemTimeout, openTimeout: openTimeout, protected: try protected.settings(inputs: inputs),
            log: { line in if !quiet { Log.say(line, prefix: "") } },
            shard: shard, junit: junit.map { URL(fileURLWithPath: $0) }, allRenditions: renditions == "all",
            pictureAudit: pictureAudit,
            hardwareDecoding: HardwareDecodingMode(argument: hwdec) ?? .auto, videoSink: videoSink,
            golden: try golden.map { GoldenComparison.Options(directory: URL(fileURLWithPath: $0, isDirectory: true), threshold: goldenThreshold, update: updateGolden,
                                                              masks: try goldenMasks(), regions: try goldenRegions()) },
            watch: watch, watchFrames: watchFrames, scenarios: try scenarios(), thresholds: try thresholds(), known: try knownProblems(), plan: plan)
        let result: CheckReport
        do {
            result = try MainActor.assumeIsolated { try CheckRunner(options: options).run() }
        } catch {
            Log.say(error.localizedDescription, prefix: "reel check")
            throw ExitCode(2)
        }
        if !quiet {
            Log.say(String(format: "%d items, %d failed, %.2f s of media checked in %.2f s; report in %@",
                           result.items.count, result.failedCount, result.mediaSeconds, result.wallSeconds, report), prefix: "reel check")
        }
        if result.failedCount > 0 { throw ExitCode(1) }
    }

    static func autoShard(quiet: Bool) throws -> CheckShard {
        let (shard, from) = try CheckShard.auto(environment: ProcessInfo.processInfo.environment)
        if !quiet { Log.say("shard \(shard) from \(from)", prefix: "reel check") }
        return shard
    }

    private func scenarios() throws -> [CheckScenario] {
        try scenario.prefix(100).map { given in
            if let text = CheckScenario.builtIn[given] { return try CheckScenario.parse(text, name: given) }
            guard let data = FileManager.default.contents(atPath: given), data.count <= 4 << 20, let text = String(data: data, encoding: .utf8) else {
                throw ValidationError("--scenario: “\(given.prefix(80))” is neither a readable text file nor a built-in (\(CheckScenario.builtIn.keys.sorted().joined(separator: ", "))).")
            }
            do { return try CheckScenario.parse(text, name: ((given as NSString).lastPathComponent as NSString).deletingPathExtension) } catch {
                throw ValidationError("--scenario \(given.prefix(80)): \(error)")
            }
        }
    }

    private func thresholds() throws -> CheckThresholds {
        var t = CheckThresholds()
        let given: [(CheckThresholds.Bound, Double?)] = [(.startup, maxStartup), (.dropped, maxDropped), (.stalls, maxStalls.map(Double.init)),
                                                          (.rebuffer, maxRebufferRatio), (.bitrate, minBitrateRatio)]
        for (bound, value) in given {
            guard let value else { continue }
            guard let v = CheckThresholds.value(String(value), for: bound) else { throw ValidationError("--\(bound.rawValue): \(value) is out of range.") }
            t.set(bound, v)
        }
        return t
    }

    private func knownProblems() throws -> KnownProblems? {
        guard let known else { return nil }
        guard let data = FileManager.default.contents(atPath: known), data.count <= 16 << 20, let text = String(data: data, encoding: .utf8) else {
            throw ValidationError("--known: “\(known.prefix(80))” is not a readable text file.")
        }
        do { return try KnownProblems.parse(text) } catch { throw ValidationError("--known \(known.prefix(80)): \(error)") }
    }

    private func goldenMasks() throws -> [(x: Int, y: Int, width: Int, height: Int)] {
        try goldenMask.prefix(1000).map { text in
            guard case .rect(let x, let y, let w, let h)? = MaskArea.parse(text, widgets: false) else {
                throw ValidationError("--golden-mask takes X,Y,W,H in the frame's pixels (got “\(text.prefix(40))”).")
            }
            return (x, y, w, h)
        }
    }

    private func goldenRegions() throws -> [GoldenRegion] {
        try goldenRegion.prefix(1000).map { text in
            guard let r = GoldenRegion.parse(text) else { throw ValidationError("--golden-region takes X,Y,W,H:SSIM (got “\(text.prefix(40))”).") }
            return r
        }
    }
}
