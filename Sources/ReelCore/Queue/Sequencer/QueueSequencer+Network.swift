import Foundation

// The network: what the desktop says of it (`networkChanged`) and what `NetworkRule` makes of it
// for the current item: wait (held by the engine, time control `waiting` noNetwork), go on,
// refuse (metered + block), and the cap on adaptive streams while metered.
extension QueueSequencer {
    /// The desktop's monitor saw a change (or gave its first reading).
    public func networkChanged(_ state: NetworkState) {
        guard state != network else { return }
        gate.network = state
        emit(.network(state), item: nil)
        applyNetwork()
        refreshPreroll()  // a prepared next item may not be allowed to start any more (or may be now)
    }

    /// "Play anyway": plays the item the metered policy refused last (or `id`), this once.
    @discardableResult
    public func playAnyway(_ id: QueueItem.ID? = nil) -> Bool {
        guard let id = id ?? lastRefusedID, queue.item(id) != nil else { return false }
        gate.playAnyway.insert(id)
        play(id)
        return true
    }

    /// Brings the current item and the bitrate cap in line with the network and the rule.
    func applyNetwork() {
        if let cap = gate.capToReport() { emit(.bitrateCap(maxBitrate: cap, reason: "metered-policy"), item: nil) }
        applyLimits(reason: "policy")
        guard let item = queue.current, engine.currentItem != nil, eventItemID == item.id else { return }
        switch gate.verdict(for: item) {
        case .wait:
            guard !engine.isWaitingForNetwork else { return }
            engine.isWaitingForNetwork = true
            // A playing item waits as long as it takes; one that never started, `offlineWait`.
            if gate.currentWasReady { gate.newGeneration() } else { armOfflineBound(for: item.id) }
        case .play, .refuse:
            // The policy is about starting: an item already loaded goes on under `block`.
            guard engine.isWaitingForNetwork else { return }
            engine.isWaitingForNetwork = false
            gate.newGeneration()
            if gate.failedWhileOffline {
                gate.failedWhileOffline = false
                loadCurrent(attempt: retries.attempts + 1)  // where it had got to (`RetryScheduler`)
            }
        }
    }

    /// An item waiting for the network that has never started fails after `offlineWait`.
    func armOfflineBound(for id: QueueItem.ID) {
        let generation = gate.newGeneration(), wait = gate.offlineWait
        clock.after(wait) { [weak self] in
            guard let self, self.gate.offlineGeneration == generation, self.engine.isWaitingForNetwork,
                  self.queue.currentID == id, !self.gate.currentWasReady, let item = self.queue.item(id) else { return }
            // Still held while the queue moves on: the next item's load replaces it (its own
            // verdict holds or releases it); released here, it was fetched as it went (the test
            // server saw a GET the moment the wait ended). At the end of the queue it stays held.
            self.gate.failedWhileOffline = false
            let error = PlaybackError(kind: .network, message: "No network: waited \(Int(wait)) s for a connection.", uri: item.uri)
            self.emit(.error(error), item: self.eventIndex)
            self.failedCount += 1
            self.advance(.failed(error))
        }
    }

    func isFailure(_ event: PlayerEvent) -> Bool {
        switch event {
        case .status(.failed), .error: true
        default: false
        }
    }

    /// A failure of the current item while it waits for the network is not the item's: it is
    /// loaded again, where it had got to, when the network returns. True when held.
    func holdFailureForNetwork() -> Bool {
        guard engine.isWaitingForNetwork, let id = eventItemID, id == queue.currentID, let item = queue.item(id),
              networkRule.needsNetwork(item.uri) else { return false }
        if !gate.failedWhileOffline {
            gate.failedWhileOffline = true
            retries.noteResumePosition(for: id, position: engine.position, seekable: engine.mediaInfo.isSeekable, live: engine.mediaInfo.isLive)
        }
        return true
    }
}
