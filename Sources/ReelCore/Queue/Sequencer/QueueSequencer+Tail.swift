import Foundation

/// A big playlist plays while it is read (issue 51): the session builds the queue from the list's
/// first entries, starts, and appends the rest when a background read has it (`appendTail`).
/// Until then the last of the first entries is no end of the queue: its end neither finishes the
/// queue nor wraps a repeating one, and nothing is prepared after it; the queue goes on when the
/// rest arrives.
struct PendingTail {
    /// The outcome of the last first entry, when it ended before the rest arrived.
    var held: ItemOutcome?
    /// The queue was cleared (`playlist-clear`, a new `load`) while the rest was still being
    /// read: what still arrives of it is dropped (it came back after the clear).
    var discarded = false
}

extension QueueSequencer {
    /// The rest of the queue is coming (`appendTail` brings it).
    public func expectTail() {
        tail = PendingTail()
    }

    /// Whether the rest of the queue is still awaited.
    public var awaitsTail: Bool { tail.map { !$0.discarded } ?? false }

    /// The list being read is no longer the queue's: the rest of it is dropped as it arrives.
    func discardTail() {
        if tail != nil { tail = PendingTail(discarded: true) }
    }

    /// Some of the rest of the queue (`complete`: the last of it): appended, and the queue goes on
    /// if it was waiting for it.
    public func appendTail(_ items: [QueueItem], complete: Bool = true) {
        guard let pending = tail else { return append(items) }
        if pending.discarded {
            if complete { tail = nil }
            return
        }
        tail = complete ? nil : PendingTail()
        append(items)
        if complete { Log.debug(.queue, .info, "the rest of the playlist is in: \(queue.count) entries") }
        if let outcome = pending.held { advance(outcome) }
    }

    /// The current item is the last one there is so far and more is coming: its end waits.
    var waitsForTail: Bool {
        guard let tail, !tail.discarded, queue.repeatMode != .one, let index = queue.currentIndex else { return false }
        return index == queue.count - 1
    }
}
