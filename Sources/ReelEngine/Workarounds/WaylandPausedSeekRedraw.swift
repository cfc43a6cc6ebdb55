import Foundation
import ReelCore
import ReelGLib

// GStreamer 1.22 workaround: on Wayland, waylandsink shows an older frame after a seek while
// paused.
//
// Seen under weston 10 (pixman), with Reel and with a plain pipeline (filesrc ! decodebin !
// videoconvert ! waylandsink, embedded in a GTK window, paused at 0.4 s or at 2 s, then a
// flushing accurate seek to 4.5 s): the sink renders the 4.5 s frame (its log says so, no drop),
// the window capture (the frame the sink holds) is right, but the compositor keeps showing an
// earlier frame. A second preroll of the same position shows it, and later paused seeks are
// right at once. So on Wayland a user's seek that lands while paused is drawn once more, a
// moment later (after the first frame's callback: a frame sent before it is dropped), as a seek
// to where it landed that is nobody's (no `seeked` event, no second redraw).
@MainActor
final class WaylandPausedSeekRedraw: PlayerFeature {
    /// How long after the landed seek it is drawn again (after the first frame's callback: a
    /// frame sent before it is dropped).
    static let delay = 0.12

    func seekLanded(user: Bool, host: FeatureHost) {
        guard user, host.isOnWayland, host.pipelineIsPaused, host.intent != .playing else { return }
        let generation = host.loadGeneration
        MainQueue.shared.after(Self.delay) { [weak host] in
            guard let host, host.loadGeneration == generation, host.intent != .playing else { return }
            Log.debug(.engine, .debug, "workaround wayland-paused-seek-redraw: the landed seek is drawn once more")
            host.redrawPausedFrame()
        }
    }
}
