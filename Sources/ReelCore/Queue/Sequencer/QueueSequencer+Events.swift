import Foundation

// Engine events in: which item they are about, the advance on end and failure, retries.
extension QueueSequencer {
    func handle(_ event: PlayerEvent, engineItem: PlaybackItem?) {
        eventItemID = engineItem?.id
        // The gateway's account of a failure (a refused manifest, a 401) before anything is
        // decided on it: a retry is planned on what really happened, not on the demuxer's 502.
        let event = router?.refine(event, uri: engine.currentURI) ?? event
        if isFailure(event), holdFailureForNetwork() { return }  // loaded again when the network returns
        switch event {
        case .itemChanged(_, let uri, let title):
            if let engineItem, engineItem.attempt > 0 { return }  // the same item again, after a `.retrying`
            if let id = eventItemID, loadAwaitingChange == id {
                loadAwaitingChange = nil
            } else if let id = eventItemID, queue.item(id) != nil {
                // A gapless switch: the engine names the prepared item that has started.
                if queue.currentID != id { queue.jump(to: id) }
                refreshPreroll()
            }
            let item = eventItemID.flatMap(queue.item)
            emit(.itemChanged(index: eventIndex, uri: uri, title: item?.displayTitle ?? title), item: eventIndex)
        case .playedToEnd:
            emit(event, item: eventIndex)
            playedCount += 1
            if engine.isAtEnd {
                advance(.played)
            } else if queue.currentID != nil {
                // The gapless switch's stream has started (its `.itemChanged` follows): the
                // queue moves without reloading.
                queue.finishCurrent(.played)
            }
        case .status(.failed(let error)) where reroutes(error) != nil || resolvesPage(error) != nil:
            break  // loaded again through the gateway, or looked up as a web page
        case .error(let error) where resolvesPage(error) != nil:
            resolvePage(after: error)
        case .error(let error) where reroutes(error) != nil:
            reroute(after: error)
        case .status(.failed(let error)) where nextRetry(after: error) != nil:
            break  // the `.retrying` that follows the error says it all
        case .error(let error) where scheduleRetry(after: error):
            break
        case .status(.readyToPlay):
            if eventItemID == queue.currentID { gate.currentWasReady = true }
            emit(event, item: eventIndex)
            if let id = eventItemID, let at = retries.takeResumePosition(for: id) {
                engine.seek(to: at, mode: .keyframe)  // a retried item goes back to where it had got to
            }
        case .tracks:
            emit(event, item: eventIndex)
            // A track choice of the current item's own: the next one is loaded at the end, where
            // the choice is applied again (see `GaplessAdvisor`); back to the defaults: switched.
            if eventItemID == queue.currentID, engine.trackChoiceNeedsLoad != gaplessAdvisor.trackChoiceNeededLoad { refreshPreroll() }
        case .mediaInfo:
            emit(event, item: eventIndex)
            // The current item's streams are known now: a gapless switch may be prepared.
            if let current = queue.current, !GaplessAdvisor.isLocal(current), eventItemID == current.id { refreshPreroll() }
        case .error(let error):
            emit(event, item: eventIndex)
            failedCount += 1
            if let id = eventItemID, id != queue.currentID, queue.item(id) != nil {
                queue.setState(.failed(error), for: id)
            } else if holdsFailedItem, eventItemID != nil, eventItemID == queue.currentID {
                break  // `reel review`: the failed item stays, its error shown, until it is judged
            } else {
                advance(.failed(error))
            }
        case .progress:
            emit(event, item: eventIndex)
            qualityControl.progress()
        case .seeked:
            emit(event, item: eventIndex)
            qualityControl.flushed()  // the buffer was flushed: its slope starts again
        case .duration(let d):
            if let id = eventItemID, let d { queue.update(id: id, duration: d) }
            emit(event, item: eventIndex)
        default:
            emit(event, item: eventIndex)
        }
    }

    /// The current item ended (or failed): the next one, or the end of the queue.
    func advance(_ outcome: ItemOutcome) {
        guard queue.currentID != nil else { return }
        if waitsForTail {
            // The list's first entries are played and the rest is still being read: no end and
            // no wrap yet; `appendTail` goes on.
            tail?.held = outcome
            Log.debug(.queue, .info, "the playlist's first \(queue.count) entries played: waiting for the rest of it")
            return
        }
        if queue.finishCurrent(outcome) != nil {
            loadCurrent()
        } else {
            isFinished = true
            engine.prepareNext(item: nil)
            // After the engine's own reaction to the end (it pauses): `.finished` is the last
            // event of the queue.
            let played = playedCount, failed = failedCount
            let reason: EndReason = if case .failed = outcome { .error } else { .ended }
            clock.soon { [weak self] in
                guard let self, self.isFinished, !self.userExited else { return }
                self.emit(.finished(played: played, failed: failed, reason: reason), item: nil)
            }
        }
    }

    // MARK: Manifests found by their bytes

    /// The current item, when the engine refused it as a manifest that did not come through the
    /// gateway and the router can route it there.
    func reroutes(_ error: PlaybackError) -> QueueItem? {
        guard let content = error.refusedContent, let id = eventItemID, id == queue.currentID, let item = queue.item(id),
              router?.canRoute(content, for: item) == true else { return nil }
        return item
    }

    /// Routes the current item through the gateway as the manifest it is, and loads it again
    /// (the same item: no new `itemChanged`).
    func reroute(after error: PlaybackError) {
        guard let item = reroutes(error), let content = error.refusedContent else { return }
        Log.debug(.queue, .info, "\(Redactor.redactURL(item.uri)) is a \(content.name) by its bytes: loaded again through the gateway")
        router?.routeByContent(content, for: item)
        releaseRouting(item.id)
        clock.soon { [weak self] in
            guard let self, self.queue.currentID == item.id else { return }
            self.loadCurrent(attempt: 1)
        }
    }

    // MARK: Retries

    /// The retry another try of the current item would be, or nil when the failure is final.
    func nextRetry(after error: PlaybackError) -> Int? {
        guard let id = eventItemID, id == queue.currentID, let item = queue.item(id) else { return nil }
        return retries.nextAttempt(after: error, item: id, isNetworkItem: MediaLocator.isNetwork(item.uri))
    }

    /// Schedules another load of the current item when the policy says the failure is worth it;
    /// false when it is not (the failure then counts as the item's).
    func scheduleRetry(after error: PlaybackError) -> Bool {
        guard nextRetry(after: error) != nil, let id = eventItemID, let item = queue.item(id),
              let plan = retries.plan(after: error, item: id, isNetworkItem: MediaLocator.isNetwork(item.uri), position: engine.position,
                                      seekable: engine.mediaInfo.isSeekable, live: engine.mediaInfo.isLive) else { return false }
        emit(.retrying(attempt: plan.attempt, delay: plan.delay, error: error), item: eventIndex)
        clock.after(plan.delay) { [weak self] in
            guard let self, self.retries.isStillWanted(plan), self.queue.currentID == plan.item else { return }
            self.loadCurrent(attempt: plan.attempt)
        }
        return true
    }
}
