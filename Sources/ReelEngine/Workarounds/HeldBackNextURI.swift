import Foundation
import ReelCore

// Workaround: the next URI is held back until the loaded item's own STREAM_START.
//
// Seen: a short or fully downloaded item reaches playbin3's about-to-finish before its own stream
// has started at the sinks; a next URI handed over then could fail (a 404) and its error arrive
// before the current item had even started, blamed on the wrong item; and that item's STREAM_START
// looked like a gapless switch. So `prepareNext` made before the loaded item's own STREAM_START is
// kept here and given to the streaming side only then. A short item that reaches about-to-finish
// before that ends at EOS instead (no gap-free switch, but every event is about the right item).
extension Player {
    /// The URI to switch to without a gap when the current item is about to finish (playbin3's
    /// about-to-finish). nil cancels. The switch is reported as `.itemChanged` at its stream start.
    public func prepareNext(_ input: String?) {
        prepareNext(item: input.map { PlaybackItem(uri: MediaLocator.uri(for: $0)) })
    }

    /// `prepareNext` with an item: when the switch starts, `item` becomes `currentItem` and the
    /// events carry its id. nil cancels.
    public func prepareNext(item: PlaybackItem?) {
        var next = item
        if let item { next?.playedURI = MediaLocator.uri(for: item.playedURI) }
        if lifecycle.awaitingOwnStreamStart {
            lifecycle.deferredNext = next
            shared.state.withLock { $0.next = nil }
            Log.debug(.engine, .debug, "workaround held-back-next: the next item waits for the loaded item's own stream start")
            return
        }
        shared.state.withLock { $0.next = next }
    }

    /// The loaded item's own STREAM_START came: a held-back next URI goes to the streaming side.
    func releaseHeldBackNext() {
        lifecycle.awaitingOwnStreamStart = false
        if let next = lifecycle.deferredNext {
            lifecycle.deferredNext = nil
            shared.state.withLock { $0.next = next }
            Log.debug(.engine, .debug, "workaround held-back-next: the loaded item started; the next item goes to playbin3")
        }
    }
}
