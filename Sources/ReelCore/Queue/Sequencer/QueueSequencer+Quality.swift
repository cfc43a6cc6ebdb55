import Foundation

// Quality: the user's choice among the current adaptive stream's renditions, within the metered
// cap, given to the engine as a bitrate window (`RenditionSelector`, `BitrateCap`).
extension QueueSequencer {
    /// The session's choice from now on (every adaptive item): applied to the playing one at once,
    /// without a reload.
    public func setQuality(_ choice: QualityChoice) {
        quality = choice
        applyLimits(reason: "manual")
    }

    /// The current item's renditions, read by the app from its master playlist.
    public func renditionsFound(_ variants: [HLSVariant], for id: QueueItem.ID) {
        guard id == queue.currentID else { return }
        renditionsItemID = id
        renditions = variants
        applyLimits(reason: "start")
    }

    /// The choice in force for the current item: its own `quality` option, else the session's.
    public var effectiveQuality: QualityChoice {
        queue.current?.option("quality").flatMap(QualityChoice.init) ?? quality
    }

    /// Gives the engine the window that the choice and the metered cap make, and says so.
    func applyLimits(reason: String) {
        let current = renditionsItemID == queue.currentID ? renditions : []
        let new = RenditionSelector.limits(effectiveQuality, renditions: current, cap: networkRule.bitrateCap(on: network))
        let changed = new != limits
        limits = new
        if engine.bitrateFloor != new.minBitrate { engine.bitrateFloor = new.minBitrate }
        if engine.bitrateCap != new.maxBitrate { engine.bitrateCap = new.maxBitrate }
        guard !current.isEmpty, changed || reason != "policy" else { return }
        let pinned = new.pinned.map { current[$0] }
        emit(.rendition(index: new.pinned, height: pinned?.resolution?.height, bandwidth: pinned?.bandwidth,
                        mode: effectiveQuality.isManual ? "manual" : "auto", reason: reason), item: eventIndex)
    }
}
