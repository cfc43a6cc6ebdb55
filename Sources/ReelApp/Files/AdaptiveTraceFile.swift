import Foundation
import ReelCore

/// `REEL_ABR_TRACE=FILE`: every sample Reel's adaptive rule sees, one CSV line each
/// (`time,buffered,throughput,playing,rendition`; time in seconds from the first sample), so a
/// run on a real network can be replayed against the rule (`AdaptiveRuleTests` keeps one).
@MainActor
final class AdaptiveTraceFile {
    private let handle: FileHandle
    private var origin: Double?

    init?(path: String) {
        guard FileManager.default.createFile(atPath: path, contents: Data("time,buffered,throughput,playing,rendition\n".utf8),
                                             attributes: [.posixPermissions: 0o600]),
              let handle = FileHandle(forWritingAtPath: path) else { return nil }
        handle.seekToEndOfFile()
        self.handle = handle
    }

    func record(_ sample: AdaptiveRule.Sample, rendition: Int) {
        let start = origin ?? sample.time
        origin = start
        let line = String(format: "%.3f,%.3f,%d,%d,%d\n", sample.time - start, sample.buffered, sample.throughput ?? 0,
                          sample.playing ? 1 : 0, rendition)
        handle.write(Data(line.utf8))
    }
}
