import CGStreamer
import ReelCore

/// Audio focus, the player's side: the sound server's cork request (pulsesink posts
/// REQUEST_STATE PAUSED when PulseAudio or pipewire-pulse asks a `media.role=video` stream to
/// stop for a call) pauses; its uncork (REQUEST_STATE PLAYING) resumes — only when Reel was
/// playing when the cork came and nobody has played or paused since. The stream's role is set
/// by `AudioStreamRole`.
extension Player {
    func onRequestState(_ state: GstState) {
        switch state {
        case GST_STATE_PAUSED, GST_STATE_READY, GST_STATE_NULL:
            guard intent == .playing else { return }
            pause()
            pausedForAudioFocus = true
            emit(.audioFocus(held: false))
        case GST_STATE_PLAYING:
            guard pausedForAudioFocus else { return }
            play()
            emit(.audioFocus(held: true))
        default:
            break
        }
    }
}
