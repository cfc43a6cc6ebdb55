import Foundation
import ReelCore

// Workaround: the next URI is held back until the loaded item's own STREAM_START.
//
// Seen: a short or fully downloaded item reaches playbin3's about-to-finish before its own stream
// has started at the sinks; a next URI handed over then could fail (a 404) and its error arrive
// before the current item had even started, blamed on the wrong item; and that item's STREAM_START
// looked like a gapless switch. So `prepareNext` made before the loaded item's own STREAM_START is
// kept here and given to the streaming side only then (`ownStreamStarted`). A short item that
// reaches about-to-finish before that ends at EOS instead (no gap-free switch, but every event is
// about the right item).
@MainActor
final class HeldBackNextURI: PlayerFeature {
    /// The next item asked for before the loaded item's own stream started.
    private(set) var held: PlaybackItem?

    func itemStarted(_ item: PlaybackItem, switched: Bool, host: FeatureHost) { held = nil }
    func itemUnloaded(host: FeatureHost) { held = nil }
    /// The item ended (or stalled there): a next item still held has nothing to follow.
    func itemEnding(host: FeatureHost) { held = nil }

    /// A restart on a fresh pipeline takes back a next item already given to the streaming side.
    func loadRestarted(nextHanded: PlaybackItem?, host: FeatureHost) { held = held ?? nextHanded }

    /// The next item (nil cancels): held while the loaded item's own stream has not started,
    /// else given to the streaming side at once.
    func prepare(_ next: PlaybackItem?, host: FeatureHost) {
        guard host.awaitingOwnStreamStart else {
            host.handToStreamingSide(next: next)
            return
        }
        held = next
        host.handToStreamingSide(next: nil)
        Log.debug(.engine, .debug, "workaround held-back-next: the next item waits for the loaded item's own stream start")
    }

    func ownStreamStarted(host: FeatureHost) {
        // A seek made as a restart (`SeekDuringGaplessSwitch`) hands it over once made.
        guard let next = held, !host.awaitingOwnStreamStart else { return }
        held = nil
        host.handToStreamingSide(next: next)
        Log.debug(.engine, .debug, "workaround held-back-next: the loaded item started; the next item goes to playbin3")
    }
}

extension Player {
    /// The URI to switch to without a gap when the current item is about to finish (playbin3's
    /// about-to-finish). nil cancels. The switch is reported as `.itemChanged` at its stream start.
    public func prepareNext(_ input: String?) {
        prepareNext(item: input.map { PlaybackItem(uri: MediaLocator.uri(for: $0)) })
    }

    /// `prepareNext` with an item: when the switch starts, `item` becomes `currentItem` and the
    /// events carry its id. nil cancels. Held back until the loaded item's own stream started
    /// (`HeldBackNextURI`).
    public func prepareNext(item: PlaybackItem?) {
        var next = item
        if let item { next?.playedURI = MediaLocator.uri(for: item.playedURI) }
        if let holder = features.first(HeldBackNextURI.self) { holder.prepare(next, host: self) } else { handToStreamingSide(next: next) }
    }

    /// Gives playbin3's about-to-finish the next item (nil: none).
    func handToStreamingSide(next: PlaybackItem?) { shared.state.withLock { $0.next = next } }
}
