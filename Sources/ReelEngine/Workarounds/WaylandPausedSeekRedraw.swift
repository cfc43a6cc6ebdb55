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
extension Player {
    /// After a seek landed (`onSeekDone`): one more preroll of the same position on Wayland.
    func redrawPausedSeekOnWayland(user: Bool) {
        guard user, output.waylandDisplay != nil, pipelineState == .paused, intent != .playing else { return }
        let generation = lifecycle.generation
        MainQueue.shared.after(0.12) { [weak self] in
            guard let self, self.lifecycle.generation == generation, self.intent != .playing else { return }
            Log.debug(.engine, .debug, "workaround wayland-paused-seek-redraw: the landed seek is drawn once more")
            self.redrawPausedFrame()
        }
    }
}
