import Foundation
import ReelCore

// Workaround: a stream that dies inside adaptivedemux2 without an error.
//
// Seen (StuckBufferingTests, DashsinkTests): a segment server that stops answering mid-item, or a
// Representation whose segments never come, left hlsdemux2/dashdemux2 buffering at the same
// percentage, or playing with a position that stood still, for ever: no error, no EOS. When
// waiting is pointless is `StuckBuffering` (ReelCore, tested by table); this component watches
// the progress timer's beats and positions, and fails the item with a clear error (the queue goes on).
@MainActor
final class StuckPlayback: PlayerFeature {
    /// Buffering that cannot complete.
    private(set) var buffering = StuckBuffering()
    /// A position that stands still while playing.
    private(set) var position = StuckBuffering()

    func itemStarted(_ item: PlaybackItem, switched: Bool, host: FeatureHost) {
        buffering = StuckBuffering()
        position = StuckBuffering()
    }

    func progressPaused(host: FeatureHost) { position.reset() }

    /// Buffering of an adaptive item that has not moved for `StuckBuffering.patience` seconds.
    func timerCheck(host: FeatureHost) -> Bool {
        let waiting = host.isAdaptive && host.intent == .playing && host.isPrerolled && !host.isWaitingForNetwork && !host.mediaInfo.isLive
        guard buffering.observe(percent: host.bufferingPercent, waiting: waiting, now: host.now) else { return false }
        host.fail(PlaybackError(kind: .timeout,
                                message: "Playback stalled: buffering stayed at \(host.bufferingPercent ?? 0) % for \(Int(buffering.patience)) s with nothing more on its way (a stream of the item stopped delivering media).",
                                uri: host.currentURI))
        return true
    }

    /// An adaptive VOD item playing (not buffering) whose position has not moved for
    /// `StuckBuffering.patience` seconds, away from its end (`EndStallWatchdog` has that).
    func positionRead(_ seconds: Double, host: FeatureHost) -> Bool {
        let nearEnd = host.duration.map { seconds >= $0 - 0.5 } ?? false
        let watching = host.isAdaptive && !host.mediaInfo.isLive && host.bufferingPercent == nil && !nearEnd
        guard position.observe(value: seconds, waiting: watching, now: host.now) else { return false }
        host.fail(PlaybackError(kind: .timeout,
                                message: String(format: "Playback stalled at %.1f s: the position stood still for %d s while playing (a stream of the item stopped delivering media).",
                                                seconds, Int(position.patience)),
                                uri: host.currentURI))
        return true
    }
}
