// ReelBench: measurements `make bench` (Resources/scripts/bench.sh) cannot take from the `reel`
// command line. Each subcommand prints one JSON object on stdout; bench.sh collects them.
//
//   ReelBench seek FILE --mode keyframe|accurate --state paused|playing --targets 12.5,40.1,...
//   ReelBench playlist [--segments 100000] [--entries 20000] [--runs 3]
//   ReelBench subtitles [--megabytes 13] [--hostile 20] [--runs 3]
//   ReelBench version
import Foundation
import ReelCore
import ReelEngine

let arguments = BenchArguments(CommandLine.arguments.dropFirst())
let status: Int32 = MainActor.assumeIsolated {
    switch arguments.command {
    case "seek": return SeekBenchmark.run(arguments)
    case "playlist": return PlaylistBenchmark.run(arguments)
    case "subtitles": return SubtitleBenchmark.run(arguments)
    case "version":
        BenchOutput.print(["gstreamer": .string(GStreamerRuntime.version)])
        return 0
    default:
        Log.say("seek FILE --mode keyframe|accurate --state paused|playing --targets T1,T2,... | playlist [--segments N] [--entries N] [--runs N] | subtitles [--megabytes N] [--hostile KB] [--runs N] | version", prefix: "usage: ReelBench")
        return 2
    }
}
exit(status)
