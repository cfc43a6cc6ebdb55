import Foundation
import ReelCore
import ReelEngine

/// Remembers where every item was left and starts it there next time (`--no-resume` turns it off).
///
/// Follows the queue's events: the position of the item playing (its last tick), kept by
/// `ResumeRule` when another item is loaded and when Reel quits, forgotten when the item plays to
/// its end. When an item is loaded and the book has a place for it, the player is asked to start
/// there (a seek before preroll: the first frame is the resumed one) and `onResumed` tells the
/// front ends (the `resumed` event, the window's notice with "Start over").
@MainActor
final class ResumeKeeper {
    private let file: ResumeFile
    private var book: ResumeBook
    private let player: Player
    private let now: () -> Double
    private var current: (key: String, index: Int)?
    private var position = 0.0
    private var duration: Double?
    private var isLive = false
    private var ended = false

    var onResumed: (_ position: Double, _ index: Int) -> Void = { _, _ in }

    init(file: ResumeFile, player: Player, now: @escaping () -> Double = { Date().timeIntervalSince1970 }) {
        self.file = file
        self.player = player
        self.now = now
        book = file.read()
    }

    /// The queue item `index` (uri `uri`) was loaded or switched to.
    func itemChanged(index: Int?, uri: String?) {
        leaveCurrent()
        resetItem()
        guard let index, let uri, let key = ResumeKey.key(for: uri) else { current = nil; return }
        current = (key, index)
        if let entry = book.entry(for: key), let start = ResumeRule.startPosition(for: entry, duration: nil) {
            player.seek(to: start, mode: .accurate)
            position = start
            onResumed(start, index)
        }
    }

    func handle(_ event: PlayerEvent) {
        switch event {
        case .progress(let p, let d, _, let live):
            position = p
            if let d { duration = d }
            if live != nil { isLive = true }
        case .duration(let d): duration = d ?? duration
        case .mediaInfo(let info): if info.isLive { isLive = true }
        case .seeked(let p): position = p
        case .playedToEnd:
            ended = true
            leaveCurrent()  // forgotten at once: a finished item starts at 0 next time
        default: break
        }
    }

    /// "Start over": the item plays from 0 and its place is forgotten.
    func startOver() {
        guard let current else { return }
        book = file.apply(.forget, key: current.key, now: now())
        position = 0
        player.seek(to: 0, mode: .accurate)
    }

    /// Reel quits: the current item's place is kept.
    func finish() {
        if current != nil, !ended, player.currentURI != nil { position = player.position }  // the exact place, not the last tick
        leaveCurrent()
        current = nil
    }

    private func leaveCurrent() {
        guard let current else { return }
        let decision = ResumeRule.decide(position: position, duration: duration, isLive: isLive, ended: ended)
        book = file.apply(decision, key: current.key, now: now())
    }

    private func resetItem() {
        position = 0
        duration = nil
        isLive = false
        ended = false
    }
}
