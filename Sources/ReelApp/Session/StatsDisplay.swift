import Foundation
import ReelCore
import ReelGLib

/// When mpv's stats panel shows and what it says: `i` shows it for `seconds`, `I` keeps it until
/// `I` again; while shown it is read again from the snapshot every half second (`PlaybackStats`).
@MainActor
final class StatsDisplay {
    static let seconds = 5.0
    private let publish: ([String]?) -> Void
    private let snapshot: () -> PlaybackSnapshot?
    private var hideAt: Date?
    private var sticky = false
    private var ticking = false

    init(publish: @escaping ([String]?) -> Void, snapshot: @escaping () -> PlaybackSnapshot?) {
        self.publish = publish
        self.snapshot = snapshot
    }

    var isShown: Bool { sticky || hideAt.map { Date() < $0 } ?? false }

    func show(sticky toggles: Bool) {
        if toggles {
            sticky.toggle()
            hideAt = nil
        } else {
            hideAt = Date().addingTimeInterval(Self.seconds)
        }
        refresh()
    }

    private func refresh() {
        guard isShown, let s = snapshot() else {
            hideAt = nil
            publish(nil)
            return
        }
        publish(PlaybackStats(s).lines)
        guard !ticking else { return }
        ticking = true
        MainQueue.shared.after(0.5) { [weak self] in
            self?.ticking = false
            self?.refresh()
        }
    }
}
