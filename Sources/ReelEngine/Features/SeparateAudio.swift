import CGStreamer
import ReelCore

/// An item's audio apart from its video (a web page's format pair: `played-audio-uri`, routed by
/// the sequencer as the item is): playbin3's `suburi`, whose streams 1.22 plays beside the
/// `uri`'s. Set on the pipeline of each load of the item and of each restart of that load; an
/// item without one leaves playbin3 as it was.
@MainActor
final class SeparateAudio: PlayerFeature {
    func itemStarted(_ item: PlaybackItem, switched: Bool, host: FeatureHost) {
        if !switched { apply(item, host: host) }
    }

    func loadRestarted(nextHanded: PlaybackItem?, host: FeatureHost) {
        if let item = host.currentItem { apply(item, host: host) }
    }

    private func apply(_ item: PlaybackItem, host: FeatureHost) {
        guard let audio = item.options["played-audio-uri"]?.first else { return }
        Log.debug(.engine, .info, "its audio apart: \(audio)")
        reel_set_string(host.pipelineElement, "suburi", audio)
    }
}
