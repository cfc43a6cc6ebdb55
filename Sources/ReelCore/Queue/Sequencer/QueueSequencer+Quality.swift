import Foundation

// Quality: the sequencer's side of `QualityController` (which owns the choice, the renditions,
// Reel's adaptive rule and what the rendition events say): what it needs to know of the queue,
// and the sequencer's public API for it.
extension QueueSequencer {
    /// The queue as the quality controller sees it now.
    var qualityNow: QualityController.Now {
        let item = queue.current
        let played = item.flatMap { playedURIs[$0.id] }
        return QualityController.Now(item: item,
                                     reportsFetches: played.map { router?.reportsFetchedRenditions(for: $0) == true } ?? false,
                                     fetchesFirstAtLowest: played.map { router?.fetchesFirstAtLowest(for: $0) == true } ?? false,
                                     eventsAreCurrent: eventItemID == queue.currentID, cap: gate.cap,
                                     time: clock.now)
    }

    /// The session's choice from now on (every adaptive item): applied to the playing one at once,
    /// without a reload.
    public func setQuality(_ choice: QualityChoice) { qualityControl.setChoice(choice) }

    /// The session's choice (an item's own `quality` option aside).
    public var quality: QualityChoice { qualityControl.choice }

    /// The current item's renditions, read by the app from its master playlist (or told by the
    /// gateway as it serves it).
    public func renditionsFound(_ variants: [HLSVariant], for id: QueueItem.ID) { qualityControl.renditionsFound(variants, for: id) }

    /// The choice in force for the current item: its own `quality` option, else the session's.
    public var effectiveQuality: QualityChoice { qualityControl.effectiveQuality }

    /// The current item's renditions when known (empty before, and for other items).
    public var currentRenditions: [HLSVariant] { qualityControl.currentRenditions }

    /// The player began fetching the media of rendition `uri` of queue item `id`.
    public func renditionFetched(_ uri: String, for id: QueueItem.ID) { qualityControl.renditionFetched(uri, for: id) }

    /// The rendition playing: by the fetches when they are seen, else the one pinned.
    public var playingRendition: Int? { qualityControl.playingRendition }

    /// Where the last measured throughput is kept between runs.
    public var throughputMemory: (any ThroughputMemory)? {
        get { qualityControl.throughputMemory }
        set { qualityControl.throughputMemory = newValue }
    }

    /// Sees every sample Reel's rule is given (`REEL_ABR_TRACE`).
    public var onAdaptiveSample: ((AdaptiveRule.Sample, Int) -> Void)? {
        get { qualityControl.onAdaptiveSample }
        set { qualityControl.onAdaptiveSample = newValue }
    }

    /// Gives the engine the window for the current item (a load, the network's cap changed).
    func applyLimits(reason: String) { qualityControl.apply(reason: reason) }
}
