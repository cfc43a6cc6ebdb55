import ReelCore

// GStreamer 1.22 workaround: positions that run ahead of the clock.
//
// Seen: when a file's data runs out early (a file cut short), playbin3 answers the position
// query with the end of the segment (the duration) until EOS arrives. That was not played: it
// must not be ticked, nor taken as where playback got to (`Player.onEnd` reports how far it got).
// The decision is `RunAheadFilter` (ReelCore, table-tested); this component owns one per item
// and is fed the timer's readings (`positionRead`): one it does not believe ends the beat.
// Shown by WorkaroundDecisionTests, RunAheadPositionsFeatureTests, EarlyEndTests.

/// Refuses the timer's position readings that run ahead of the clock (`RunAheadFilter`).
@MainActor
final class RunAheadPositions: PlayerFeature {
    private(set) var filter = RunAheadFilter()

    func itemStarted(_ item: PlaybackItem, switched: Bool, host: FeatureHost) { filter.reset() }

    /// A seek was issued or the item stopped: the next reading is measured from itself.
    func positionJumped(host: FeatureHost) { filter.reset() }

    func seekLanded(user: Bool, host: FeatureHost) { filter.reset() }

    func positionRead(_ seconds: Double, host: FeatureHost) -> Bool {
        guard filter.believes(seconds, at: host.now, rate: host.rate, live: host.mediaInfo.isLive) else {
            Log.debug(.engine, .trace, "workaround run-ahead: \(seconds) s is ahead of the clock, not believed")
            return true
        }
        return false
    }
}
