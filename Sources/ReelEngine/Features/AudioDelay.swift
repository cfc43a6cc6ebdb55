import CGStreamer
import ReelCore

/// mpv's `audio-delay` (Ctrl++ / Ctrl+−): seconds the sound is played later than the picture
/// (negative: earlier), kept across items, set as playbin3's `av-offset` (playsink moves the audio
/// or the video sink's `ts-offset`). Said as an `audio-delay` event when it changes.
@MainActor
final class AudioDelay: PlayerFeature {
    /// mpv's step for Ctrl++ / Ctrl+−.
    static let step = 0.1
    static let range = -600.0...600.0
    private(set) var seconds = 0.0

    func readout(into snapshot: inout PlaybackSnapshot, host: FeatureHost) { snapshot.audioDelay = seconds }
    func pipelineBuilt(host: FeatureHost) { apply(host: host) }

    func properties(host: FeatureHost) -> [Property] {
        [.number("audio-delay", NumberSpec(range: Self.range, step: Self.step, unit: "s"), "Seconds the sound plays later than the picture.",
                 get: { $0.audioDelay }) { self.set($0, host: host) }]
    }

    func set(_ value: Double, host: FeatureHost) {
        guard value.isFinite else { return }
        let next = (min(Self.range.upperBound, max(Self.range.lowerBound, value)) * 1000).rounded() / 1000
        guard next != seconds else { return }
        seconds = next
        Log.debug(.engine, .info, "audio delay: \(next) s")
        apply(host: host)
        host.emit(.audioDelay(next))
    }

    private func apply(host: FeatureHost) {
        reel_set_int64(host.pipelineElement, "av-offset", gint64((seconds * 1e9).rounded()))
    }
}

extension Player {
    /// Seconds the sound plays later than the picture (mpv's `audio-delay`).
    public var audioDelay: Double { features.first(AudioDelay.self)?.seconds ?? 0 }

    /// Sets the audio delay (seconds, ±600).
    public func setAudioDelay(_ seconds: Double) { features.first(AudioDelay.self)?.set(seconds, host: self) }
}
