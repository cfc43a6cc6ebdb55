import ReelCore

/// Audio focus, the player's side: the sound server's cork request (pulsesink posts
/// REQUEST_STATE PAUSED when PulseAudio or pipewire-pulse asks a `media.role=video` stream to
/// stop for a call) pauses; its uncork (REQUEST_STATE PLAYING) resumes — only when Reel was
/// playing when the cork came and nobody has played or paused since. The stream's role is set
/// by `AudioStreamRole`.
@MainActor
final class AudioFocus: PlayerFeature {
    /// Paused because the sound server asked; its uncork resumes.
    private(set) var pausedForFocus = false

    func requestedState(_ state: PipelineTarget, host: FeatureHost) {
        switch state {
        case .paused, .ready, .null:
            guard host.intent == .playing else { return }
            Log.debug(.engine, .info, "audio focus: the sound server corked the stream; pausing")
            host.pause()
            pausedForFocus = true
            host.emit(.audioFocus(held: false))
        case .playing:
            guard pausedForFocus else { return }
            Log.debug(.engine, .info, "audio focus: uncorked after a cork of ours; playing")
            host.play()
            host.emit(.audioFocus(held: true))
        }
    }

    func userChangedIntent(host: FeatureHost) { pausedForFocus = false }
}
