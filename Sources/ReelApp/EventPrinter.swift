import Foundation
import ReelCore

/// Writes the `--events` stream: one JSON line per event on stdout (see README "Event stream").
@MainActor
final class EventPrinter {
    private let started = Date()
    private let includeFineProgress: Bool
    private let write: (String) -> Void

    init(includeFineProgress: Bool, write: @escaping (String) -> Void = { FileHandle.standardOutput.write(Data(($0 + "\n").utf8)) }) {
        self.includeFineProgress = includeFineProgress
        self.write = write
    }

    func print(_ event: PlayerEvent, item: Int?) {
        if case .progress(_, _, let tick, _) = event, tick == .fine, !includeFineProgress { return }
        write(EventEncoder.line(event, item: item, time: Date().timeIntervalSince(started)))
    }
}
