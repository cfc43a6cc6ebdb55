import Foundation

// Loading: what the engine is given for an item, once per item, and what goes when it leaves.
extension QueueSequencer {
    func isLoadedCurrent(_ id: QueueItem.ID) -> Bool {
        guard queue.currentID == id, engine.currentItem?.id == id else { return false }
        if case .failed = engine.status { return false }
        return true
    }

    /// Loads the current item; `attempt` > 0 for a retry (see `RetryScheduler`).
    func loadCurrent(attempt: Int = 0) {
        guard let item = queue.current else { return }
        if attempt == 0 { retries.itemLoaded() }
        isFinished = false
        let uri: String
        do { uri = try playedURI(item) } catch {
            // A bad per-entry option, or a gateway that could not start, fails this item clearly;
            // the queue goes on.
            failWithoutLoading(item, PlaybackError(kind: error.kind, message: error.description, uri: item.uri))
            return
        }
        gate.itemLoaded()
        let verdict = gate.verdict(for: item)
        Log.debug(.queue, .info, "load item \(queue.currentIndex ?? -1)\(attempt > 0 ? ", retry \(attempt)" : ""): \(item.uri)")
        Log.debug(.network, .info, "\(item.uri): \(verdict) on \(gate.network)")
        switch verdict {
        case .refuse(let error):
            gate.lastRefusedID = item.id
            failWithoutLoading(item, error)
            return
        case .wait:
            engine.isWaitingForNetwork = true
            armOfflineBound(for: item.id)
        case .play:
            break
        }
        loadAwaitingChange = item.id
        applyLimits(reason: "policy")  // the item before's pinned rendition does not carry over
        engine.load(playbackItem(item, playedURI: uri, attempt: attempt))
        // Released after the load: released before it, an item before that was held for the
        // network (one that waited in vain) started fetching for the moment until this load.
        if case .play = verdict { engine.isWaitingForNetwork = false }
        refreshPreroll()
    }

    /// An item that cannot even be loaded (bad options, the metered policy) fails clearly, and
    /// the queue goes on.
    func failWithoutLoading(_ item: QueueItem, _ failure: PlaybackError) {
        eventItemID = item.id
        emit(.itemChanged(index: eventIndex, uri: Redactor.redactURL(item.uri), title: item.displayTitle), item: eventIndex)
        emit(.error(failure), item: eventIndex)
        failedCount += 1
        advance(.failed(failure))
    }

    /// The engine's view of a queue item. Routed items get their headers from the gateway; the
    /// engine's source must not add them again.
    func playbackItem(_ item: QueueItem, playedURI uri: String, attempt: Int = 0) -> PlaybackItem {
        let routed = uri != MediaLocator.uri(for: item.uri)
        var options = item.options
        // A separate audio (a web page's format pair): routed as the item is, played beside it.
        if let audio = try? playedAudioURI(item) { options["played-audio-uri"] = [audio] }
        return PlaybackItem(id: item.id, uri: item.uri, playedURI: uri,
                            headers: routed ? [] : item.headers.map { (name: $0.0, value: $0.1) },
                            title: item.displayTitle, options: options, attempt: attempt)
    }

    func unloadEngine() {
        loadAwaitingChange = nil
        eventItemID = nil
        engine.prepareNext(item: nil)
        engine.unload()
    }

    /// The URI the engine gets for an item: the router's (registered once per item). Throws when
    /// the item's playlist options are invalid.
    func playedURI(_ item: QueueItem) throws(ProtectedEntryOptions.OptionError) -> String {
        if let known = playedURIs[item.id] { return known }
        guard let router else { return MediaLocator.uri(for: item.uri) }
        let uri = try router.playedURI(for: item)
        playedURIs[item.id] = uri
        return uri
    }

    /// The engine's URI for an item's separate audio (`audio-url`), routed as the item is (its
    /// headers to its own origin), registered once under a key of its own; nil without one.
    func playedAudioURI(_ item: QueueItem) throws(ProtectedEntryOptions.OptionError) -> String? {
        guard let audio = item.option("audio-url") else { return nil }
        let key = Self.audioKey(item.id)
        if let known = playedURIs[key] { return known }
        guard let router else { return audio }
        let part = QueueItem(id: key, uri: audio, title: item.title, options: item.options.filter { $0.key != "audio-url" }, arrival: item.arrival)
        let uri = try router.playedURI(for: part)
        playedURIs[key] = uri
        return uri
    }

    /// The key an item's separate audio is registered under (its id with one byte turned).
    static func audioKey(_ id: QueueItem.ID) -> QueueItem.ID {
        var bytes = id.uuid
        bytes.15 ^= 0xA5
        return UUID(uuid: bytes)
    }

    /// An item left the queue: its routing goes too (a gateway's URLs answer 404 from now on).
    func releaseRouting(_ id: QueueItem.ID) {
        if let audio = playedURIs.removeValue(forKey: Self.audioKey(id)) { router?.release(audio) }
        guard let uri = playedURIs.removeValue(forKey: id) else { return }
        router?.release(uri)
    }

    /// Secrets in items' options are redacted from everything Reel writes from now on.
    func registerSecrets(_ items: [QueueItem]) {
        for item in items {
            for (name, values) in item.options {
                for value in values where PlaylistOptions.isSecret(name: name, value: value) {
                    if name == PlaylistOptions.header, let (_, v) = PlaylistOptions.splitHeader(value) {
                        Redactor.register(secret: v)
                        if let space = v.firstIndex(of: " ") { Redactor.register(secret: String(v[v.index(after: space)...])) }
                    } else {
                        Redactor.register(secret: value)
                    }
                }
            }
        }
    }

    // MARK: Gapless

    /// Tells the engine which item to switch to gaplessly, or none (`GaplessAdvisor`).
    func refreshPreroll() {
        let current = queue.current, next = waitsForTail ? nil : queue.upcoming
        let engineLayout: StreamLayout? = current.flatMap { c in
            eventItemID == c.id && engine.status == .readyToPlay
                ? StreamLayout(video: engine.mediaInfo.width != nil, audio: engine.mediaInfo.audioCodec != nil) : nil
        }
        gaplessAdvisor.trackChoiceNeededLoad = engine.trackChoiceNeedsLoad
        switch gaplessAdvisor.advise(enabled: gapless, current: current, next: next, engineLayout: engineLayout,
                                     trackChoiceNeedsLoad: gaplessAdvisor.trackChoiceNeededLoad) {
        case .prepare(let id):
            // Only an item the network rule lets play now is switched to without a load (which
            // is where the rule is applied otherwise).
            guard let next, next.id == id,
                  gate.verdict(for: next) == .play,
                  let uri = try? playedURI(next) else {
                engine.prepareNext(item: nil)
                return
            }
            engine.prepareNext(item: playbackItem(next, playedURI: uri))
        case .none:
            engine.prepareNext(item: nil)
        case .probe(let ids):
            engine.prepareNext(item: nil)
            startProbes(ids)  // a network current item: its `.mediaInfo` asks again
        }
    }

    /// Probes local items off the main thread, then decides the switch again.
    func startProbes(_ ids: [QueueItem.ID]) {
        guard let prober, !ids.isEmpty else { return }
        let jobs = ids.compactMap { id in queue.item(id).map { (id: id, uri: MediaLocator.uri(for: $0.uri)) } }
        gaplessAdvisor.probeStarted(jobs.map(\.id))
        prober.probe(jobs) { [weak self] found in
            guard let self else { return }
            for (id, layout) in found { self.gaplessAdvisor.probed(id, layout: layout, stillQueued: self.queue.item(id) != nil) }
            self.refreshPreroll()
        }
    }
}
