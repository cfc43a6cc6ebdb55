// The fuzz targets of ReelCore. Resources/scripts/fuzz.sh compiles ReelCore's sources with the
// files of this folder into one libFuzzer binary (LibFuzzerMain.swift is its entry); `make test`
// replays the committed corpus through the same targets in the debug build (Replay/).
// A property that does not hold calls `fuzzFailure`, which aborts: libFuzzer saves the input.
import Foundation
#if canImport(ReelCore)
@testable import ReelCore
#endif

/// The fuzz targets by name. Add one: a file here with `static func run(_ bytes: [UInt8])`,
/// and a line below (see Tests/Fuzz/README.md).
enum FuzzTargets {
    static let all: [String: @Sendable ([UInt8]) -> Void] = {
        var targets: [String: @Sendable ([UInt8]) -> Void] = [
            "redactor": RedactorFuzz.run,
            "timeformat": TimeFormatFuzz.run,
            "medialocator": MediaLocatorFuzz.run,
            "events": EventLineFuzz.run,
            "ipc": IPCRequestFuzz.run,
            "byterange": ByteRangeFuzz.run,
            "subtitles": SubtitleFuzz.run,
            "dash": DASHFuzz.run,
            "content": ContentSniffFuzz.run,
        ]
        #if REEL_HAVE_PLAYLIST_PARSER  // issue 4's parsers, when they are in ReelCore (fuzz.sh checks)
        targets["playlist"] = PlaylistFuzz.run
        targets["m3u"] = PlaylistFuzz.runM3U
        targets["pls"] = PlaylistFuzz.runPLS
        targets["xspf"] = PlaylistFuzz.runXSPF
        #endif
        #if REEL_HAVE_HLS  // the gateway lane's HLS parser and rewriter, in ReelCore (fuzz.sh checks)
        targets["hls"] = HLSParserFuzz.run
        targets["rewriter"] = RewriterFuzz.run
        targets["live"] = LiveEditorFuzz.run
        targets["numbers"] = NumbersFuzz.run
        #endif
        #if REEL_HAVE_PLAYLIST_PARSER && REEL_HAVE_HLS  // `reel inspect`'s core needs both
        targets["inspect"] = InspectFuzz.run
        #endif
        return targets
    }()
}

func fuzzFailure(_ message: String) -> Never {
    FileHandle.standardError.write(Data("fuzz property failed: \(message)\n".utf8))
    abort()
}
