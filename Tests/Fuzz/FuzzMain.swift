// libFuzzer entry for ReelCore (Resources/scripts/fuzz.sh compiles ReelCore's sources with the
// files of this folder into one binary; REEL_FUZZ_TARGET picks the target at start-up).
// A property that does not hold calls `fuzzFailure`, which aborts: libFuzzer saves the input.
import Foundation

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

    static let selected: @Sendable ([UInt8]) -> Void = {
        let name = ProcessInfo.processInfo.environment["REEL_FUZZ_TARGET"] ?? ""
        guard let target = all[name] else {
            FileHandle.standardError.write(Data("REEL_FUZZ_TARGET must be one of: \(all.keys.sorted().joined(separator: ", "))\n".utf8))
            exit(2)
        }
        return target
    }()
}

func fuzzFailure(_ message: String) -> Never {
    FileHandle.standardError.write(Data("fuzz property failed: \(message)\n".utf8))
    abort()
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    FuzzTargets.selected(bytes)
    return 0
}
