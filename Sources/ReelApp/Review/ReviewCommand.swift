import ArgumentParser
import Foundation
import ReelCore
import ReelEngine

/// `reel review LIST... [--report DIR] [--junit FILE] [--reviewer NAME]`: the window on the list
/// with the review bar; every verdict and mark is in DIR at once; the same command resumes at
/// the first item not yet judged. Exit status 0 when every item passed, 1 when any failed or is
/// not judged, 2 for a bad command line.
struct ReviewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "review",
        abstract: "Review a playlist in the window: a verdict (pass or fail, with a note) and marked frames per item, kept in a report.",
        discussion: """
        Keys: y passes the item, n fails it (type the note, Enter), b marks the moment (type a note, \
        Enter; its frame is kept). The socket (--ipc) takes `verdict pass|fail [NOTE]` and `mark NOTE`. \
        Each verdict moves to the next item not judged; the review ends when every item is. \
        Run the same command again to go on where it was left.
        """)

    @Argument(help: "Files, URLs or playlists to review, in order.")
    var inputs: [String] = []

    @Option(help: ArgumentHelp("The review folder: review.json, report.json, index.html, marks/, checks/ (created if needed).", valueName: "DIR"))
    var report: String = "reel-review"

    @Option(help: ArgumentHelp("Also write the report as JUnit XML (a failed verdict is a failure whose message is its note).", valueName: "FILE"))
    var junit: String?

    @Option(help: ArgumentHelp("Who is reviewing (default: the user's login name).", valueName: "NAME"))
    var reviewer: String?

    @Option(help: ArgumentHelp("Check each item reached with `reel check` in the background and show what it found (yes), or not (no).", valueName: "yes|no"))
    var check: String = "yes"

    @Option(help: ArgumentHelp("Serve the JSON-lines control socket at PATH (auto: $XDG_RUNTIME_DIR/reel-<pid>.sock).", valueName: "PATH"))
    var ipc: String?

    @OptionGroup var sinks: SinkOptions

    @Flag(help: "Print one JSON object per line on stdout for every event (as `reel --events`).")
    var events = false

    func validate() throws {
        if inputs.isEmpty { throw ValidationError("Give the playlist (or files and URLs) to review.") }
        if !["yes", "no"].contains(check) { throw ValidationError("--check: yes or no.") }
        if let reviewer, ItemReview.cleanNote(reviewer) == nil { throw ValidationError("--reviewer: a name, not empty.") }
    }

    func run() throws {
        var options = PlaybackOptions(
            inputs: inputs, headless: false, exitAtEnd: false, audioSink: sinks.audioSink, videoSink: sinks.videoSink,
            printEvents: events, printProgress: false, progressInterval: 0.2, volume: nil, mute: false, startPosition: nil)
        GStreamerRuntime.initialiseInBackground()
        // Each item plays again until it is judged (a failed one moves on: it can be judged too);
        // items start at their beginning (no resume positions).
        options.repeatMode = .one
        options.remote = RemoteOptions(ipcPath: ipc, mpris: false)
        options.inputConf = UserKeyBindings.defaultPath()  // the reviewer's own keys too (the review keys come first)
        options.review = ReviewOptions(directory: URL(fileURLWithPath: report, isDirectory: true).standardizedFileURL,
                                       junit: junit.map { URL(fileURLWithPath: $0).standardizedFileURL },
                                       reviewer: ItemReview.cleanNote(reviewer) ?? Self.loginName(),
                                       automatedChecks: check == "yes")
        let status = MainActor.assumeIsolated { () -> Int32 in
            guard let status = WindowSession.run(options: options) else {
                Diagnostics.say(tr("reel review needs a display (DISPLAY or WAYLAND_DISPLAY)"))
                return 2
            }
            return status
        }
        ProcessEnd.now(status: status)
    }

    static func loginName() -> String {
        let env = ProcessInfo.processInfo.environment
        return env["USER"].flatMap { $0.isEmpty ? nil : $0 } ?? env["LOGNAME"].flatMap { $0.isEmpty ? nil : $0 } ?? "reviewer"
    }
}
