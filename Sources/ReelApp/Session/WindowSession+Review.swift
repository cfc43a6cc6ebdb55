import Foundation
import ReelCore
import ReelUI

// `reel review` in the window: the session hosts a `ReviewSession` (which owns the review) and
// connects it to the window's review bar and keys.
extension WindowSession {
    /// Opens the review the options ask for (none: nothing to do) before the queue starts, so it
    /// starts at the first item not yet judged. False when the review folder cannot be used.
    func openReview() -> Bool {
        guard let reviewOptions = options.review else { return true }
        do {
            let review = try ReviewSession(options: reviewOptions, core: core)
            self.review = review
            if !controller.queue.isEmpty { core.startItem = controller.queue.items[review.startIndex].id }
            review.onFinished = { [weak self] _ in self?.quit() }
            return true
        } catch {
            Diagnostics.say("reel review: \(error)")
            return false
        }
    }

    /// The bar shows the review; its buttons and the review keys (y, n, b; before input.conf's)
    /// run the review's commands; the `?` window lists the keys.
    func attachReview() {
        guard let review, let window else { return }
        let bar = window.reviewBar
        bar.show(review.barText)
        review.onChange = { [weak self, weak bar] in
            guard let self, let review = self.review else { return }
            bar?.show(review.barText)
        }
        bar.onButton = { [weak self] button in
            switch button {
            case .pass: self?.reviewRequest(.pass)
            case .fail: self?.reviewRequest(.fail)
            case .mark: self?.reviewRequest(.mark)
            }
        }
        let userKeys = window.userKeys.handle
        window.userKeys.handle = { [weak self] keyval, modifiers in
            if let chord = KeyChord(keyval: keyval, modifiers: modifiers), let key = ReviewSession.keys.first(where: { KeyChord(parsing: $0.key) == chord }) {
                self?.reviewRequest(key.request)
                return true
            }
            return userKeys?(keyval, modifiers) ?? false
        }
        window.userKeys.listing = ReviewSession.keys.map { ($0.key, $0.meaning) } + window.userKeys.listing
    }

    /// A key or a button: pass at once; fail and mark ask for a note first (a mark's time is the
    /// moment the key was pressed).
    func reviewRequest(_ request: ReviewSession.KeyRequest) {
        guard let review, let window else { return }
        switch request {
        case .pass:
            run { try review.judge(.pass, note: nil) }
        case .fail:
            window.reviewBar.askNote(tr("Why does it fail? (Enter records, Esc cancels)")) { [weak self] note in
                guard let note else { return }
                self?.run { try review.judge(.fail, note: note) }
            }
        case .mark:
            // The moment is the key press: its time and its frame, whatever plays while the note is typed.
            let shown = player.shownFrame()
            let time = shown?.time ?? player.displayedFrameTime ?? player.position, frame = shown?.png ?? player.snapshotPNG()
            window.reviewBar.askNote(String(format: tr("Note for the mark at %@ (Enter records, Esc cancels)"), TimeFormat.clock(time))) { [weak self] note in
                guard let note else { return }
                self?.run { try review.mark(note: note, at: time, frame: frame) }
            }
        }
    }

    private func run(_ command: () throws -> JSONValue) {
        do { _ = try command() } catch { Diagnostics.say("review: \(error)") }
    }
}
