import Foundation

// Quality: the user's choice among the current adaptive stream's renditions, within the metered
// cap, given to the engine as a bitrate window (`RenditionSelector`, `BitrateCap`). In auto mode
// (and under a `max-height` / `max-bitrate` cap) Reel's own `AdaptiveRule` chooses the rendition
// from the demuxer's buffer and throughput and pins it the same way.
extension QueueSequencer {
    /// The session's choice from now on (every adaptive item): applied to the playing one at once,
    /// without a reload.
    public func setQuality(_ choice: QualityChoice) {
        quality = choice
        adaptiveRule.reset()
        autoIndex = nil
        applyLimits(reason: "manual")
    }

    /// The current item's renditions, read by the app from its master playlist.
    /// Told again (the gateway as it serves the master, then the playlist reader), it is kept as is.
    public func renditionsFound(_ variants: [HLSVariant], for id: QueueItem.ID) {
        guard id == queue.currentID, renditionsItemID != id || renditions != variants else { return }
        renditionsItemID = id
        renditions = variants
        adaptiveRule.reset()
        autoIndex = nil
        applyLimits(reason: "start")
    }

    /// The renditions of the item played as `playedURI`, when it is the current one.
    public func renditionsFound(_ variants: [HLSVariant], playedURI: String) {
        guard let current = queue.current, playedURIs[current.id] == playedURI else { return }
        renditionsFound(variants, for: current.id)
    }

    /// The choice in force for the current item: its own `quality` option, else the session's.
    public var effectiveQuality: QualityChoice {
        queue.current?.option("quality").flatMap(QualityChoice.init) ?? quality
    }

    /// The current item's renditions when known (empty before, and for other items).
    public var currentRenditions: [HLSVariant] { renditionsItemID == queue.currentID ? renditions : [] }

    /// Gives the engine the window that the choice and the metered cap make, and says so.
    func applyLimits(reason: String) {
        let current = currentRenditions
        let choice = effectiveQuality
        var new = RenditionSelector.limits(choice, renditions: current, cap: networkRule.bitrateCap(on: network))
        var why = reason
        let adaptive = !choice.isManual && current.filter({ $0.bandwidth != nil }).count > 1
        if adaptive {
            // Auto: Reel's rule pins a rendition within the window the choice and the cap leave.
            let bandwidths = current.map(\.bandwidth)
            let permitted = AdaptiveRule.permitted(bandwidths, allowed: new.maxBitrate)
            if autoIndex == nil {
                autoIndex = adaptiveRule.start(bandwidths: bandwidths, knownThroughput: throughputMemory?.recall(),
                                               allowed: new.maxBitrate)?.index
                // From a start that may be below what the network carries, the demuxer buffers
                // little until the rule's first decision (`AdaptiveRule.Settings.probeBuffer`).
                if reason == "start", let index = autoIndex {
                    adaptiveRule.beginProbe(from: index, bandwidths: bandwidths, allowed: new.maxBitrate)
                }
            } else if let index = autoIndex, !permitted.contains(index) {
                autoIndex = AdaptiveRule.highest(bandwidths, among: permitted) { _ in true }
                why = "policy"
            }
            if let index = autoIndex, let bandwidth = bandwidths[index] {
                new = RenditionSelector.Limits(minBitrate: bandwidth, maxBitrate: bandwidth, pinned: index)
            }
        }
        let changed = new != limits
        limits = new
        applyBufferingLimit(adaptive: adaptive)
        // On the demuxer's scale (AVERAGE-BANDWIDTH when a variant has one): see DemuxerBitrateWindow.
        let window = DemuxerBitrateWindow.window(new, renditions: current)
        if engine.bitrateFloor != window.floor { engine.bitrateFloor = window.floor }
        if engine.bitrateCap != window.cap { engine.bitrateCap = window.cap }
        guard !current.isEmpty, changed || why != "policy" else { return }
        emitRendition(reason: why)
    }

    /// The demuxer's buffering target: the probe's while it lasts (auto mode), else its own.
    func applyBufferingLimit(adaptive: Bool) {
        let limit = adaptive ? adaptiveRule.bufferingTarget : nil
        if engine.bufferingLimit != limit { engine.bufferingLimit = limit }
    }

    /// Says a decision: at once when the item's fetches are not seen, else when they show it
    /// (`RenditionReport`).
    func emitRendition(reason: String) {
        if let current = queue.current, let played = playedURIs[current.id], router?.reportsFetchedRenditions(for: played) == true {
            guard let said = renditionReport.decided(item: played, target: limits.pinned, reason: reason,
                                                     mode: effectiveQuality.isManual ? "manual" : "auto", renditions: currentRenditions) else { return }
            emitRendition(index: said.index, reason: said.reason)
        } else {
            emitRendition(index: limits.pinned, reason: reason)
        }
    }

    private func emitRendition(index: Int?, reason: String) {
        let current = currentRenditions
        let variant = index.flatMap { current.indices.contains($0) ? current[$0] : nil }
        emit(.rendition(index: index, height: variant?.resolution?.height, bandwidth: variant?.bandwidth,
                        mode: effectiveQuality.isManual ? "manual" : "auto", reason: reason), item: eventIndex)
    }

    /// The player began fetching the media of variant `uri` (as the current item's master lists
    /// it) of the item played as `playedURI`: what plays changed.
    public func renditionFetched(_ uri: String, playedURI: String) {
        guard let current = queue.current, playedURIs[current.id] == playedURI else { return }
        guard let said = renditionReport.fetched(item: playedURI, uri: uri, renditions: currentRenditions) else { return }
        emitRendition(index: said.index, reason: said.reason)
    }

    /// The rendition playing: by the fetches when they are seen, else the one pinned.
    public var playingRendition: Int? {
        if let current = queue.current, let played = playedURIs[current.id], renditionReport.item == played,
           let playing = renditionReport.playing(in: currentRenditions) { return playing }
        return limits.pinned
    }

    /// A progress event of the current item: the rule looks at the demuxer (auto mode only), and
    /// the throughput is remembered now and then.
    func adaptiveTick() {
        guard let stats = engine.adaptiveStats, eventItemID == queue.currentID else { return }
        let now = clock.now
        if let throughput = stats.throughput, let memory = throughputMemory,
           throughputRememberedAt.map({ now - $0 >= 10 }) ?? true {
            memory.remember(throughput)
            throughputRememberedAt = now
        }
        let current = currentRenditions
        guard !effectiveQuality.isManual, let index = autoIndex, current.count > 1 else { return }
        let sample = AdaptiveRule.Sample(time: now, buffered: stats.buffered, throughput: stats.throughput, playing: stats.playing)
        onAdaptiveSample?(sample, index)
        let allowed = RenditionSelector.limits(effectiveQuality, renditions: current, cap: networkRule.bitrateCap(on: network)).maxBitrate
        let decision = adaptiveRule.observe(sample, current: index, bandwidths: current.map(\.bandwidth), allowed: allowed)
        applyBufferingLimit(adaptive: true)
        guard let decision, decision.index != index else { return }
        autoIndex = decision.index
        applyLimits(reason: decision.reason.rawValue)
    }
}
