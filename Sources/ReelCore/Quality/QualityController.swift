import Foundation

/// Adaptive quality for the queue's current item: the user's choice among its renditions within
/// the metered cap, given to the engine as a bitrate window (`RenditionSelector`,
/// `DemuxerBitrateWindow`); in auto mode (and under a `max-height` / `max-bitrate` cap) Reel's
/// own `AdaptiveRule` chooses the rendition from the demuxer's buffer and throughput and pins it
/// the same way; and what the `rendition` events say, from what the player fetches
/// (`RenditionReport`). It owns this state; `QueueSequencer` tells it what happens (a load,
/// the renditions, progress, a flush, the network's cap) and passes on what it says.
@MainActor
public final class QualityController {
    /// What the controller needs to know of the queue, read when it acts.
    public struct Now {
        /// The current queue item.
        public var item: QueueItem?
        /// The router sees the current item's fetches (rendition events follow them).
        public var reportsFetches: Bool
        /// The demuxer's first video fragment is its lowest rendition's (DASH).
        public var fetchesFirstAtLowest = false
        /// The engine's events are about the current item.
        public var eventsAreCurrent: Bool
        /// The metered cap on adaptive streams (bits/s), nil when none.
        public var cap: Int?
        public var time: Double
    }

    let engine: any PlaybackEngine
    private let now: () -> Now
    private let say: (PlayerEvent) -> Void

    /// The session's choice (`--quality`, `set_property rendition`, the menu).
    public internal(set) var choice: QualityChoice = .auto
    /// The current item's renditions (its master's variants), once known; empty until then.
    public internal(set) var renditions: [HLSVariant] = []
    public internal(set) var renditionsItemID: QueueItem.ID?
    /// The window last given to the engine.
    public internal(set) var limits = RenditionSelector.Limits()
    /// Reel's own rule in auto mode, fed from the engine's demuxer at every progress event;
    /// `autoIndex` is the rendition it has chosen for the current item.
    public var adaptiveRule = AdaptiveRule()
    public internal(set) var autoIndex: Int?
    /// What the rendition events say, from what the player fetches (items through the gateway).
    public internal(set) var renditionReport = RenditionReport()
    /// Where the last measured throughput is kept between runs (the start rendition's basis).
    public var throughputMemory: (any ThroughputMemory)?
    /// Sees every sample the rule is given, with the rendition playing (`REEL_ABR_TRACE`).
    public var onAdaptiveSample: ((AdaptiveRule.Sample, Int) -> Void)?
    private var throughputRememberedAt: Double?

    /// - Parameter now: the queue as it is when the controller acts.
    /// - Parameter say: passes an event on (as the current item's).
    public init(engine: any PlaybackEngine, now: @escaping () -> Now, say: @escaping (PlayerEvent) -> Void) {
        self.engine = engine
        self.now = now
        self.say = say
    }

    /// The session's choice from now on (every adaptive item): applied to the playing one at once,
    /// without a reload.
    public func setChoice(_ choice: QualityChoice) {
        self.choice = choice
        adaptiveRule.reset()
        autoIndex = nil
        apply(reason: "manual")
    }

    /// The current item's renditions (`id` must be the current item's). Told again (the gateway
    /// as it serves the master, then the playlist reader), it is kept as is.
    public func renditionsFound(_ variants: [HLSVariant], for id: QueueItem.ID) {
        guard id == now().item?.id, renditionsItemID != id || renditions != variants else { return }
        renditionsItemID = id
        renditions = variants
        adaptiveRule.reset()
        autoIndex = nil
        apply(reason: "start")
    }

    /// The choice in force for the current item: its own `quality` option, else the session's.
    public var effectiveQuality: QualityChoice { effectiveQuality(in: now()) }

    private func effectiveQuality(in n: Now) -> QualityChoice {
        n.item?.option("quality").flatMap(QualityChoice.init) ?? choice
    }

    /// The current item's renditions when known (empty before, and for other items).
    public var currentRenditions: [HLSVariant] { renditionsItemID == now().item?.id ? renditions : [] }

    /// Gives the engine the window that the choice and the metered cap make, and says so.
    /// `reason`: `policy` (a load, the network), `manual`, `start`, or the rule's.
    public func apply(reason: String) {
        let n = now()
        let current = currentRenditions
        let choice = effectiveQuality(in: n)
        var new = RenditionSelector.limits(choice, renditions: current, cap: n.cap)
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
        if changed || reason != "policy" {
            Log.debug(.quality, .debug, "\(why): \(choice) over \(current.count) renditions → pinned \(new.pinned.map(String.init) ?? "none"), "
                      + "bitrate \(new.minBitrate.map(String.init) ?? "-")…\(new.maxBitrate.map(String.init) ?? "-")\(n.cap.map { ", metered cap \($0)" } ?? "")")
        }
        limits = new
        applyBufferingLimit(adaptive: adaptive)
        // On the demuxer's scale (AVERAGE-BANDWIDTH when a variant has one): see DemuxerBitrateWindow.
        let window = DemuxerBitrateWindow.window(new, renditions: current)
        if engine.bitrateFloor != window.floor { engine.bitrateFloor = window.floor }
        if engine.bitrateCap != window.cap { engine.bitrateCap = window.cap }
        guard !current.isEmpty, changed || why != "policy" else { return }
        emitRendition(reason: why, in: n)
    }

    /// The demuxer's buffering target: the probe's while it lasts (auto mode), else its own.
    private func applyBufferingLimit(adaptive: Bool) {
        let limit = adaptive ? adaptiveRule.bufferingTarget : nil
        if engine.bufferingLimit != limit { engine.bufferingLimit = limit }
    }

    /// Says a decision: at once when the item's fetches are not seen, else when they show it.
    private func emitRendition(reason: String, in n: Now) {
        let mode = effectiveQuality(in: n).isManual ? "manual" : "auto"
        if let item = n.item, n.reportsFetches {
            guard let said = renditionReport.decided(item: item.id.uuidString, target: limits.pinned, reason: reason, mode: mode,
                                                     renditions: currentRenditions) else { return }
            emitRendition(index: said.index, reason: said.reason, mode: mode)
        } else {
            emitRendition(index: limits.pinned, reason: reason, mode: mode)
        }
    }

    private func emitRendition(index: Int?, reason: String, mode: String) {
        let current = currentRenditions
        let variant = index.flatMap { current.indices.contains($0) ? current[$0] : nil }
        say(.rendition(index: index, height: variant?.resolution?.height, bandwidth: variant?.bandwidth, mode: mode, reason: reason))
    }

    /// The player began fetching the media of variant `uri` (as the current item's master lists
    /// it) of queue item `id`: what plays changed.
    public func renditionFetched(_ uri: String, for id: QueueItem.ID) {
        let n = now()
        guard n.item?.id == id else { return }
        guard let said = renditionReport.fetched(item: id.uuidString, uri: uri, renditions: currentRenditions,
                                                 firstAtLowest: n.fetchesFirstAtLowest) else { return }
        emitRendition(index: said.index, reason: said.reason, mode: effectiveQuality(in: n).isManual ? "manual" : "auto")
    }

    /// The rendition playing: by the fetches when they are seen, else the one pinned.
    public var playingRendition: Int? {
        if let item = now().item, renditionReport.item == item.id.uuidString,
           let playing = renditionReport.playing(in: currentRenditions) { return playing }
        return limits.pinned
    }

    /// A progress event of the current item: the rule looks at the demuxer (auto mode only), and
    /// the throughput is remembered now and then.
    public func progress() {
        let n = now()
        guard let stats = engine.adaptiveStats, n.eventsAreCurrent else { return }
        if let throughput = stats.throughput, let memory = throughputMemory,
           throughputRememberedAt.map({ n.time - $0 >= 10 }) ?? true {
            memory.remember(throughput)
            throughputRememberedAt = n.time
        }
        let current = currentRenditions
        let choice = effectiveQuality(in: n)
        guard !choice.isManual, let index = autoIndex, current.count > 1 else { return }
        let sample = AdaptiveRule.Sample(time: n.time, buffered: stats.buffered, throughput: stats.throughput, playing: stats.playing)
        onAdaptiveSample?(sample, index)
        let allowed = RenditionSelector.limits(choice, renditions: current, cap: n.cap).maxBitrate
        let decision = adaptiveRule.observe(sample, current: index, bandwidths: current.map(\.bandwidth), allowed: allowed)
        Log.debug(.quality, .trace, "sample at \(sample.time): buffered \(sample.buffered) s, throughput \(sample.throughput.map(String.init) ?? "-") → \(decision.map { "\($0.reason.rawValue) to \($0.index)" } ?? "stay at \(index)")")
        applyBufferingLimit(adaptive: true)
        guard let decision, decision.index != index else { return }
        autoIndex = decision.index
        apply(reason: decision.reason.rawValue)
    }

    /// The demuxer's buffer was flushed (a seek): its slope starts again.
    public func flushed() { adaptiveRule.restartSamples() }
}
