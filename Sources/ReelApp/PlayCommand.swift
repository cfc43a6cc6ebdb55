import ArgumentParser
import Foundation
import ReelCore

/// `reel [OPTIONS] FILE|URL...`: play the inputs in order.
struct PlayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play files and URLs (the default command).")

    @Argument(help: "Files, URLs or playlists to play, in order.")
    var inputs: [String] = []

    @Flag(help: "Play with no window and exit at the end (exit status 0 when every item played).")
    var headless = false

    @Flag(help: "Exit when the last item ends, also with a window.")
    var exitAtEnd = false

    @Option(help: ArgumentHelp("Audio sink as a GStreamer element description.", valueName: "DESCRIPTION"))
    var audioSink: String?

    @Option(help: ArgumentHelp("Video sink as a GStreamer element description.", valueName: "DESCRIPTION"))
    var videoSink: String?

    @Flag(help: "Print one JSON object per line on stdout for every status change, 1 s tick, item change, end and error.")
    var events = false

    @Flag(help: "With --events, also print the fine progress reports (every --progress-interval).")
    var eventsProgress = false

    @Option(help: "Fine progress interval in milliseconds (UI updates).")
    var progressInterval: Int = 200

    @Option(help: "What to do at the end of the last item: pause, replay or advance.")
    var endAction: EndActionArgument?

    @Option(help: "Start volume, 0–100.")
    var volume: Double?

    @Flag(help: "Start muted.")
    var mute = false

    @Option(help: "Start at this position (seconds or h:mm:ss).")
    var start: String?

    @OptionGroup(title: "Protected streams") var protected: ProtectedStreamOptions

    func validate() throws {
        if inputs.isEmpty && headless { throw ValidationError("--headless needs at least one FILE or URL.") }
        if !(20...1000).contains(progressInterval) { throw ValidationError("--progress-interval must be 20–1000 ms.") }
        if let start, TimeFormat.parse(start) == nil { throw ValidationError("--start: '\(start)' is not a time.") }
    }

    func run() throws {
        let options = PlaybackOptions(
            inputs: inputs, headless: headless, exitAtEnd: exitAtEnd || headless,
            audioSink: audioSink, videoSink: videoSink, printEvents: events, printProgress: eventsProgress,
            progressInterval: Double(progressInterval) / 1000, endAction: endAction?.value,
            volume: volume.map { min(100, max(0, $0)) / 100 }, mute: mute, startPosition: start.flatMap(TimeFormat.parse),
            protected: try protected.settings())
        let status = MainActor.assumeIsolated { PlaybackSession(options: options).run() }
        if status != 0 { throw ExitCode(status) }
    }
}

enum EndActionArgument: String, ExpressibleByArgument, CaseIterable {
    case pause, replay, advance
    var value: EndAction { EndAction(rawValue: rawValue)! }
}
