import Foundation
import ReelCore
import ReelEngine
import ReelGLib

// The retry scheduler: a network item that failed on the network or with a 5xx is loaded again
// after `RetryPolicy`'s back-off, and resumes where it had got to.
extension QueueController {
    /// Schedules another load of the current item when `retryPolicy` says the failure is worth
    /// it; returns false when it is not (the failure then counts as the item's).
    func scheduleRetry(after error: PlaybackError) -> Bool {
        guard let (id, count) = nextRetry(after: error) else { return false }
        // Resume where it stopped, for a seekable item that had been playing a while.
        let position = engine.position
        let resumeAt = engine.mediaInfo.isSeekable && !engine.mediaInfo.isLive && position > 1 ? position : retries?.resumeAt
        retries = (id, count, resumeAt)
        let delay = retryPolicy.delay(beforeRetry: count)
        emit(.retrying(attempt: count, delay: delay, error: error), item: eventIndex)
        let generation = loadGeneration
        MainQueue.shared.after(delay) { [weak self] in
            guard let self, self.loadGeneration == generation, self.queue.currentID == id else { return }
            self.loadCurrent(retry: true)
        }
        return true
    }

    /// The item and retry number another try would be, or nil when the failure is final.
    func nextRetry(after error: PlaybackError) -> (QueueItem.ID, Int)? {
        guard let id = eventItemID, id == queue.currentID, let item = queue.item(id), MediaLocator.isNetwork(item.uri) else { return nil }
        let count = (retries?.id == id ? retries?.count ?? 0 : 0) + 1
        return retryPolicy.shouldRetry(error, failures: count, isNetworkItem: true) ? (id, count) : nil
    }

    /// After a retried item is ready again: back to where it had got to.
    func resumeAfterRetry() {
        guard let r = retries, r.id == eventItemID, let at = r.resumeAt else { return }
        retries?.resumeAt = nil
        engine.seek(to: at, mode: .keyframe)
    }
}
