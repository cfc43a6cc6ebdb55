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
    var report: String

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

    @Option(help: ArgumentHelp("Also write the report as JUnit XML (one testcase per item) to FILE.", valueName: "FILE"))
    var junit: String?

    @Option(help: ArgumentHelp("Check only shard K of N (item i belongs to shard i mod N + 1); join the shards' reports with `reel check merge`.", valueName: "K/N"))
    var shard: String?

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

    @Option(help: ArgumentHelp("Follow each live HLS item for this many seconds: every variant reloaded as a player does, every new segment fetched; staleness, media and discontinuity sequences, PROGRAM-DATE-TIME against the wall clock and between variants, unavailable segments and lagging variants, with their times.", valueName: "SECONDS"))
    var watch: Double?

    @Option(help: ArgumentHelp("While watching, photograph the picture (and measure the sound) every SECONDS: black, frozen and silent over time, the photos in the report; 0: never.", valueName: "SECONDS"))
    var watchFrames: Double = 10

    /// The same options as `reel play`: protected network items are checked through the gateway,
    /// so headers and tokens reach every request of an HLS stream, not only the first.
    @OptionGroup(title: "Protected streams") var protected: ProtectedStreamOptions

    func validate() throws {
        if inputs.isEmpty { throw ValidationError("Give at least one FILE, URL or playlist to check.") }
        _ = try protected.settings(inputs: inputs)
        _ = try goldenMasks()
        _ = try goldenRegions()
        if CapturePosition.parseList(at) == nil { throw ValidationError("--at: '\(at)' is not a list of seconds or percentages such as 10%,50%,90%.") }
        do { try CaptureFileName.validate(frameName) } catch { throw ValidationError("--frame-name: \(error)") }
        if !(itemTimeout > 0) { throw ValidationError("--item-timeout must be positive.") }
        if !(openTimeout > 0) { throw ValidationError("--open-timeout must be positive.") }
        if inputs.first == "merge" { return }  // `reel check merge DIR… --report OUT` (CheckMerge)
        if !["auto", "all"].contains(renditions) { throw ValidationError("--renditions: auto or all.") }
        if HardwareDecodingMode(argument: hwdec) == nil { throw ValidationError("--hwdec: auto or no.") }
        if let shard, CheckShard(shard) == nil { throw ValidationError("--shard: '\(shard)' is not K/N with 1 ≤ K ≤ N.") }
        if let watch, !(watch > 0 && watch <= 86_400) { throw ValidationError("--watch: seconds, more than 0 and at most a day.") }
        if !(watchFrames >= 0 && watchFrames <= 86_400) { throw ValidationError("--watch-frames: seconds from 0 (never).") }
        if updateGolden, golden == nil { throw ValidationError("--update-golden: say where with --golden DIR.") }
        if !(0...1).contains(goldenThreshold) { throw ValidationError("--golden-threshold: an SSIM from 0 to 1.") }
    }

    func run() throws {
        if inputs.first == "merge" {
            try CheckMerge(directories: Array(inputs.dropFirst()), report: report, junit: junit).run()
            return
        }
        let quiet = self.quiet
        let options = CheckRunner.Options(
            inputs: inputs, reportDirectory: URL(fileURLWithPath: report, isDirectory: true),
            positions: CapturePosition.parseList(at) ?? CapturePosition.defaults, template: frameName,
            decodeToEnd: !framesOnly, itemTimeout: itemTimeout, openTimeout: openTimeout, protected: try protected.settings(inputs: inputs),
            log: { line in if !quiet { Log.say(line, prefix: "") } },
            shard: shard.flatMap(CheckShard.init), junit: junit.map { URL(fileURLWithPath: $0) }, allRenditions: renditions == "all",
            pictureAudit: pictureAudit,
            hardwareDecoding: HardwareDecodingMode(argument: hwdec) ?? .auto,
            golden: try golden.map { GoldenComparison.Options(directory: URL(fileURLWithPath: $0, isDirectory: true), threshold: goldenThreshold, update: updateGolden,
                                                              masks: try goldenMasks(), regions: try goldenRegions()) },
            watch: watch, watchFrames: watchFrames)
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
