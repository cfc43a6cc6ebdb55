import ArgumentParser

/// `--audio-sink` and `--video-sink`, the same for `reel play` and `reel review`.
struct SinkOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Audio sink as a GStreamer element description.", valueName: "DESCRIPTION"))
    var audioSink: String?

    @Option(help: ArgumentHelp("Video sink as a GStreamer element description.", valueName: "DESCRIPTION"))
    var videoSink: String?
}
