import Foundation
import ReelCore

/// Writes the `--events` stream: one JSON line per event on stdout (see docs/EVENTS.md).
@MainActor
final class EventPrinter {
    private let started = Date()
    private let includeFineProgress: Bool
    private let includeSubtitles: Bool
    private let write: @MainActor (String) -> Void

    init(includeFineProgress: Bool, includeSubtitles: Bool = false, write: @escaping @MainActor (String) -> Void = EventPrinter.writeToStandardOutput) {
        self.includeFineProgress = includeFineProgress
        self.includeSubtitles = includeSubtitles
        self.write = write
    }

    /// Writes a line to stdout. A reader that went away (`reel --events | head -1`) is not an
    /// error of playback: the rest of the stream is dropped and playback goes on (FileHandle's
    /// write would trap on EPIPE).
    static func writeToStandardOutput(_ line: String) {
        guard !standardOutputClosed else { return }
        let bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Foundation.write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if n > 0 { offset += n; continue }
            if n < 0 && errno == EINTR { continue }
            standardOutputClosed = true  // EPIPE (SIGPIPE is ignored) or another write error
            return
        }
    }

    private static var standardOutputClosed = false

    func print(_ event: PlayerEvent, item: Int?) {
        if case .progress(_, _, let tick, _) = event, tick == .fine, !includeFineProgress { return }
        if case .subtitle = event, !includeSubtitles { return }
        write(EventEncoder.line(event, item: item, time: Date().timeIntervalSince(started)))
    }
}
