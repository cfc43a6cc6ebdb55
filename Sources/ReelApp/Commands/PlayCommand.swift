import ArgumentParser
import Foundation
import ReelCore
import ReelDesktop
import ReelEngine

/// `reel [OPTIONS] FILE|URL...`: play the inputs in order.
struct PlayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play files and URLs (the default command).")

    @Argument(help: "Files, URLs or playlists (M3U, PLS, XSPF; HLS plays as one stream), all in one queue, in order.")
    var inputs: [String] = []

    @Flag(help: "Play with no window and exit at the end (exit status 0 when every item played).")
    var headless = false

    @Flag(help: "Exit when the last item ends, also with a window.")
    var exitAtEnd = false

    @OptionGroup var sinks: SinkOptions

    @Flag(help: "Print one JSON object per line on stdout for every status change, 1 s tick, item change, end and error.")
    var events = false

    @Flag(help: "With --events, also print the fine progress reports (every --progress-interval).")
    var eventsProgress = false

    @Flag(help: "With --events, also print a `subtitle` event whenever the subtitle text on screen changes.")
    var eventsSubs = false

    @Option(help: "Fine progress interval in milliseconds (UI updates).")
    var progressInterval: Int = 200

    @Option(help: "Start volume, 0–100 (up to --volume-max amplifies).")
    var volume: Double?

    @Option(name: .customLong("volume-max"), help: ArgumentHelp("The most the volume goes to, in percent (100–150; mpv's default 130): above 100 the sound is amplified.", valueName: "PERCENT"))
    var volumeMax: Double = 130

    @Flag(help: "Start muted.")
    var mute = false

    @Flag(help: "Start paused: the first item is loaded and its first frame shown (Space plays), as mpv's --pause.")
    var pause = false

    @Option(help: ArgumentHelp("The window's size and place, as mpv's: WxH, WxH+X+Y, +X+Y, a width alone, or percentages of the screen (50%, 50%x40%). The size it was left at is then neither read nor written, so every run's first picture is the same.", valueName: "GEOMETRY"))
    var geometry: String?

    @Option(help: ArgumentHelp("The window's title, instead of the playing item's (mpv's --title).", valueName: "TEXT"))
    var title: String?

    @Flag(help: "A Reel of its own, even when one is open (by default files go to the open window, as Totem's and Celluloid's do).")
    var newWindow = false

    @Flag(help: "Files go to the end of the open Reel's queue, without interrupting what it plays.")
    var enqueue = false

    /// GApplication's flag, as the D-Bus service file starts Reel (DBusActivatable=true): own the
    /// app's name and take the Open or Activate that started it.
    @Flag(name: .customLong("gapplication-service"), help: .hidden)
    var gapplicationService = false

    @Option(help: ArgumentHelp("The sound's output: auto (the sound server's default) or a device as the socket's audio-device-list names it (pulse/NAME), as mpv's --audio-device.", valueName: "NAME"))
    var audioDevice: String?

    @Flag(help: "Print Reel's version, and GStreamer's and GTK's it runs on (also `reel version`).")
    var version = false

    @Option(help: ArgumentHelp("Write the window's widget tree (the socket's window-tree: each widget's role, accessible name, state and rectangle) as JSON to FILE once the first item shows its first frame (at --start-time, if given).", valueName: "FILE"))
    var dumpTree: String?

    @Option(help: ArgumentHelp("A live item's clock as if it read this ISO 8601 time (with its zone: 2026-12-02T20:00:00Z) when its first frame played, running at the media's pace: the live labels, the LIVE badge and epoch-time are the same at the same media position on every run (UI tests' goldens).", valueName: "TIME"))
    var clockAt: String?

    @Flag(inversion: .prefixedNo, help: "GTK's animations (the transitions of buttons, of the focus, of popovers). --no-animations turns them off for a UI test's goldens: on a compositor a transition can stop midway, and two runs' captures then differ by a shade.")
    var animations = true

    @Flag(inversion: .prefixedNo, help: "Reopen the window at the size (and, on X11, the place) it was left at, and remember it at the end.")
    var rememberWindow = true

    @Option(help: ArgumentHelp("One local file opened in the window plays among its folder's media files, in natural order, from itself (mpv's autoload). Default: yes in a window, no with --exit-at-end (a scripted run plays what it was given). Never headless, nor for a playlist or several inputs.", valueName: "yes|no"))
    var autoload: String?

    @Option(name: .customLong("input-conf"), help: ArgumentHelp("Key bindings in mpv's input.conf form (KEY command), before the window's own keys. Default: $XDG_CONFIG_HOME/reel/input.conf when it exists.", valueName: "FILE"))
    var inputConf: String?

    @Option(help: ArgumentHelp("Start at this position in the first item (seconds or h:mm:ss).", valueName: "TIME"))
    var startTime: String?

    @Option(help: ArgumentHelp("Start every item where it was left last time (yes, the default) or from its beginning (no). Positions are kept in $XDG_STATE_HOME/reel/resume.json, without secrets.", valueName: "yes|no"))
    var resume: String?

    @Flag(name: .customLong("no-resume"), help: "Start every item from its beginning (same as --resume=no).")
    var noResume = false

    @Option(help: ArgumentHelp("Preferred audio languages, first match wins (en,fr or eng,fre).", valueName: "LANGS"))
    var alang: String?

    @Option(help: ArgumentHelp("Preferred subtitle languages: a matching subtitle track is shown (en,fr).", valueName: "LANGS"))
    var slang: String?

    @Option(name: .customLong("sub-file"), help: ArgumentHelp("A subtitle file (SRT, WebVTT, ASS) to offer with every item, besides those found beside it (repeatable).", valueName: "FILE"))
    var subFiles: [String] = []

    @Option(name: .customLong("sub-delay"), help: ArgumentHelp("Show subtitles this many seconds later (negative: earlier; z and Z change it by 0.1).", valueName: "SECONDS"))
    var subDelay: Double = 0

    @Option(name: .customLong("sub-pos"), help: ArgumentHelp("The subtitles' vertical position: 0 top, 100 bottom (default), up to 150 (r and R move it).", valueName: "0-150"))
    var subPos: Int = SubtitleStyle.defaultPosition

    @Option(name: .customLong("sub-scale"), help: ArgumentHelp("The subtitles' size as a factor of the default (0.3–4; F and G change it).", valueName: "FACTOR"))
    var subScale: Double = 1

    @Option(help: ArgumentHelp("Hardware video decoding: auto (the GPU's decoders that work on this machine go first; a failing one falls back to software) or no (GStreamer's ranks).", valueName: "auto|no"))
    var hwdec: String = "auto"

    @Option(help: ArgumentHelp("Start the queue at this item (0-based; with --shuffle the shuffled queue starts with it).", valueName: "INDEX"))
    var start: Int?

    @Flag(help: "Play the queue in random order (every item once before any repeats).")
    var shuffle = false

    @Option(help: ArgumentHelp("Repeat: none, one (the current item) or all (the queue).", valueName: "none|one|all"))
    var loop: LoopArgument = .none

    @Option(help: ArgumentHelp("Save the queue (after --shuffle) as a playlist before playing: .m3u8 or .xspf.", valueName: "FILE"))
    var savePlaylist: String?

    @Option(help: ArgumentHelp("Try a network item this many more times when it fails on the network or with a server error (5xx), waiting 0 s, 1 s, 2 s, … up to 5 s between tries (Media3's back-off); 0 never.", valueName: "N"))
    var retries: Int = RetryPolicy.defaultRetries

    @Flag(help: "Also retry network items that stalled until the network timeout.")
    var retryTimeouts = false

    // The network (see NetworkRule): what the desktop's network monitor says, and the user's policy.
    @Option(help: ArgumentHelp("On a metered connection: allow (play as usual), cap (adaptive streams at their lowest rendition or --metered-max-bitrate) or block (network items do not start).", valueName: "allow|cap|block"))
    var metered: MeteredPolicy = .default
    @Option(help: ArgumentHelp("With --metered cap: the highest bitrate adaptive streams may use while metered (bits/s; default: the lowest rendition).", valueName: "BPS"))
    var meteredMaxBitrate: Int?
    @Option(help: ArgumentHelp("Adaptive streams' quality: auto, a height (360p, 720p, 1080p: that rendition, kept), max-height=N or max-bitrate=BPS (auto below it); also a playlist entry's quality option.", valueName: "CHOICE"))
    var quality: String = "auto"
    @Option(help: ArgumentHelp("How long a network item started without a network waits for one before it fails (seconds).", valueName: "SECONDS"))
    var offlineWait: Double = 30

    // Live items (see LiveProgram): the mode and programme for every item of the command line
    // that does not set its own (`#EXTREEL:live-mode=…`).
    @Option(help: ArgumentHelp("Live HLS and DASH items: live (from a safe distance behind the edge), restart (from --program-start) or catchup (--program-start to --program-end, as VOD).", valueName: "live|restart|catchup"))
    var liveMode: String?
    @Option(help: ArgumentHelp("The programme's start, ISO 8601 with a zone (2026-11-24T20:00:00Z).", valueName: "ISO8601"))
    var programStart: String?
    @Option(help: ArgumentHelp("The programme's end, ISO 8601 with a zone; after it a live-program-end event (live, restart).", valueName: "ISO8601"))
    var programEnd: String?
    @Option(help: ArgumentHelp("Start this many seconds after the live window's start (restart: after the programme start).", valueName: "SECONDS"))
    var startOffset: String?
    @Option(help: ArgumentHelp("Restart and catchup at the origin: ask it for this URL, with {start} and {end} (ISO 8601) or {start_epoch} and {end_epoch} filled in (AWS MediaPackage: '&start={start}&end={end}', added to the item's query when it begins with &).", valueName: "TEMPLATE"))
    var timeshiftURL: String?

    // Remote control (see RemoteControl). `--ipc auto` uses $XDG_RUNTIME_DIR/reel-<pid>.sock.
    @Option(help: ArgumentHelp("Serve the JSON-lines control socket at PATH (auto: $XDG_RUNTIME_DIR/reel-<pid>.sock).", valueName: "PATH"))
    var ipc: String?
    @Flag(inversion: .prefixedNo, help: "Publish MPRIS 2 on the session bus (media keys, desktop shells, playerctl). Default: on with a window when a session bus is running, off with --headless.")
    var mpris: Bool?
    @Option(help: ArgumentHelp("Where screenshots go (default: the current directory).", valueName: "DIR"))
    var screenshotDir: String?
    @Option(help: ArgumentHelp("Save every item's frame when playback passes these positions (seconds or %, comma-separated).", valueName: "POSITIONS"))
    var screenshotAt: String?

    @OptionGroup(title: "Protected streams") var protected: ProtectedStreamOptions
    @OptionGroup(title: "Web pages") var webPages: YTDLOptions
    @OptionGroup(title: "Sound") var sound: SoundOptions

    func validate() throws {
        let inputs = protected.effectiveInputs(inputs)
        if inputs.isEmpty && headless { throw ValidationError("--headless needs at least one FILE or URL.") }
        _ = try protected.settings(inputs: inputs)
        if !(20...1000).contains(progressInterval) { throw ValidationError("--progress-interval must be 20–1000 ms.") }
        if let startTime, TimeFormat.parse(startTime) == nil { throw ValidationError("--start-time: '\(startTime)' is not a time.") }
        if let resume, !["yes", "no"].contains(resume) { throw ValidationError("--resume: '\(resume)' is not yes or no.") }
        if !SubtitleStyle.delayRange.contains(subDelay) { throw ValidationError("--sub-delay must be within ±600 s.") }
        if !SubtitleStyle.positionRange.contains(subPos) { throw ValidationError("--sub-pos must be 0–150.") }
        if HardwareDecodingMode(argument: hwdec) == nil { throw ValidationError("--hwdec: '\(hwdec)' is not auto or no.") }
        if let start, start < 0 { throw ValidationError("--start: the index must be 0 or more.") }
        if !(0...20).contains(retries) { throw ValidationError("--retries must be 0–20.") }
        if let meteredMaxBitrate, meteredMaxBitrate < 1 { throw ValidationError("--metered-max-bitrate must be 1 or more (bits/s).") }
        if QualityChoice(quality) == nil { throw ValidationError("--quality: '\(quality)' is not auto, 720p, an index, max-height=N or max-bitrate=BPS.") }
        if !(0...86_400).contains(offlineWait) { throw ValidationError("--offline-wait must be 0–86400 seconds.") }
        if let savePlaylist, PlaylistWriter.Format(fileName: savePlaylist) == nil {
            throw ValidationError("--save-playlist: use a .m3u8 or .xspf file name.")
        }
        if let screenshotAt, CapturePosition.parseList(screenshotAt) == nil { throw ValidationError("--screenshot-at: '\(screenshotAt)' is not a list such as 10%,50%,90% or 1.5,3.") }
    }

    /// The command line's live options as one programme (nil when none is given); exit 2 with
    /// the option named when they do not fit together.
    func liveProgram() throws -> LiveProgram? {
        var given: [String: [String]] = [:]
        given[LiveProgram.Option.mode] = liveMode.map { [$0] }
        given[LiveProgram.Option.start] = programStart.map { [$0] }
        given[LiveProgram.Option.end] = programEnd.map { [$0] }
        given[LiveProgram.Option.startOffset] = startOffset.map { [$0] }
        given[LiveProgram.Option.timeshift] = timeshiftURL.map { [$0] }
        do { return try LiveProgram.parse(given, prefix: "--") } catch {
            Diagnostics.say(error.description)
            throw ExitCode(2)
        }
    }

    static func languages(_ list: String?) -> [String] {
        (list ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    func run() throws {
        if version {
            print(ReelCommand.versionText)
            return
        }
        let live = try liveProgram()
        let inputs = protected.effectiveInputs(inputs)
        var options = PlaybackOptions(
            inputs: inputs, headless: headless, exitAtEnd: exitAtEnd,
            audioSink: sinks.audioSink, videoSink: sinks.videoSink, printEvents: events, printProgress: eventsProgress,
            progressInterval: Double(progressInterval) / 1000,
            volume: volume.map { min(max(100, min(150, volumeMax)), max(0, $0)) / 100 }, mute: mute, startPosition: startTime.flatMap(TimeFormat.parse),
            shuffle: shuffle, repeatMode: loop.value, startIndex: start, savePlaylist: savePlaylist,
            protected: try protected.settings(inputs: inputs))
        // The options are good: playing needs GStreamer, whose registry is read meanwhile (while
        // the rest of the options are made and GTK starts).
        GStreamerRuntime.initialiseInBackground()
        options.retryPolicy = RetryPolicy(maxRetries: retries, kinds: RetryPolicy.defaultKinds.union(retryTimeouts ? [.timeout] : []))
        // REEL_LOOPBACK_IS_REMOTE=1: servers on 127.0.0.1 count as remote (tests of the policy).
        options.networkRule = NetworkRule(policy: metered, meteredMaxBitrate: meteredMaxBitrate,
                                          loopbackIsRemote: ProcessInfo.processInfo.environment["REEL_LOOPBACK_IS_REMOTE"] == "1")
        options.offlineWait = offlineWait
        options.startPaused = pause
        if let geometry {
            guard let parsed = WindowGeometry.parse(geometry) else {
                throw ValidationError("--geometry takes WxH, WxH+X+Y, +X+Y or percentages such as 50% (got “\(geometry.prefix(40))”).")
            }
            options.geometry = parsed
        }
        if let title { guard title.count <= 500 else { throw ValidationError("--title is at most 500 characters.") } }
        options.windowTitle = title
        if let audioDevice { guard !audioDevice.isEmpty, audioDevice.count <= 200 else { throw ValidationError("--audio-device takes auto or pulse/NAME.") } }
        options.audioDevice = audioDevice
        options.ytdl = try webPages.settings()
        options.audioEffects = try sound.settings()
        options.enqueue = enqueue
        // Scripted runs keep their own process: a socket, an exit at the end, a headless run.
        options.singleInstance = (!newWindow && !headless && !exitAtEnd && ipc == nil) || gapplicationService
        options.dbusService = gapplicationService
        options.dumpTree = dumpTree.map { URL(fileURLWithPath: $0).path }
        if let clockAt {
            guard let date = ProgramDate.parse(clockAt) else { throw ValidationError("--clock-at takes an ISO 8601 time with its zone, such as 2026-12-02T20:00:00Z.") }
            options.clockAt = date
        }
        // A replay keeps the recorded clock (`ReplayOrigin.recordedClock`) unless told another.
        if options.clockAt == nil, let replay = options.protected.replay { options.clockAt = replay.recordedClock }
        options.rememberWindow = rememberWindow && geometry == nil
        options.animations = animations
        guard autoload == nil || ["yes", "no"].contains(autoload) else { throw ValidationError("--autoload takes yes or no.") }
        options.autoload = (autoload ?? (exitAtEnd ? "no" : "yes")) == "yes" && !headless
        guard volumeMax.isFinite, (100...150).contains(volumeMax) else { throw ValidationError("--volume-max takes 100 to 150 (percent).") }
        options.volumeMax = volumeMax / 100
        options.inputConf = inputConf.map { URL(fileURLWithPath: $0).path } ?? UserKeyBindings.defaultPath()
        options.quality = QualityChoice(quality) ?? .auto
        options.live = live
        options.preferences.audioLanguages = Self.languages(alang)
        options.preferences.subtitleLanguages = Self.languages(slang)
        options.preferences.subtitleFiles = subFiles.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        options.preferences.subtitleLook = SubtitleAdjustments(scale: subScale, delay: subDelay, position: subPos)
        options.printSubtitles = eventsSubs
        options.preferences.hardwareDecoding = HardwareDecodingMode(argument: hwdec) ?? .auto
        options.resumeFile = noResume || resume == "no" ? nil : ResumeFile.defaultPath()
        options.throughputFile = ThroughputFile.defaultPath()
        options.remote = RemoteOptions(ipcPath: ipc, mpris: mpris ?? (!headless && SessionBus.isAvailable()), mprisExplicit: mpris != nil, screenshotDirectory: screenshotDir,
                                       screenshotAt: screenshotAt.flatMap(CapturePosition.parseList) ?? [])
        // Headless runs exit at the end, unless something outside (socket, MPRIS asked for) drives them.
        options.exitAtEnd = exitAtEnd || (headless && !options.remote.keepsSessionAlive)
        StartupTrace.mark("parsed")
        MainActor.assumeIsolated {
            // A named session that outlives run(): its closures hold it weakly (the optimiser
            // warned that a temporary here is released as soon as the call returns). It is
            // never released: a session that ended with `processEnding` left its gateway to the
            // process's end, and releasing it ran the gateway's deinit with its HTTP client
            // still open (a debug build's assertion ended a replay with SIGILL, status 132).
            let session = PlaybackSession(options: options)
            withExtendedLifetime(session) {
                ProcessEnd.now(status: session.run())  // never exit(): see ProcessEnd
            }
        }
    }
}
