import ReelCore
import ReelGLib

/// Work that waits until the first frame is on screen (or the first error, or the end, or
/// `delay` seconds, whichever comes first), then runs once: what connects to the session bus
/// (MPRIS, the document portal's drop targets) never competes with the start of playback.
@MainActor
final class AfterFirstFrame {
    private var work: (() -> Void)?

    init(delay: Double = 1.0, _ work: @escaping () -> Void) {
        self.work = work
        MainQueue.shared.after(delay) { [weak self] in self?.run() }
    }

    /// Runs the work on the queue events that mean playback has started or cannot.
    func handle(_ event: PlayerEvent) {
        switch event {
        case .status(.readyToPlay), .error, .finished: run()
        default: break
        }
    }

    /// Runs the work now, unless it has run or was cancelled.
    func run() {
        guard let work else { return }
        self.work = nil
        work()
    }

    func cancel() { work = nil }
}
