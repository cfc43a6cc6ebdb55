import CGStreamer
import CReelFrame
import Foundation
import ReelCore

/// The sound's effects (`AudioEffectSettings`): `replaygain`, `replaygain-preamp`,
/// `dialogue-boost`, `night-mode`, `equalizer-preset`, `equalizer-gains`. Off, they are not in the
/// pipeline at all (playbin3's `audio-filter` stays what it was: `scaletempo`, or none). Turning
/// one on while an item plays loads it again at its position with the filter in place (playsink
/// takes its filter when the pipeline is built); a change of an effect already in place (a band's
/// gain, the pre-amp, track or album) is set on its element at once.
@MainActor
final class AudioEffects: PlayerFeature {
    private(set) var settings = AudioEffectSettings()
    /// The filter the pipeline was built with (nil: none of Reel's effects), and its description.
    private var filter: UnsafeMutablePointer<GstElement>?
    private var built: String?

    func configure(_ configuration: PlayerConfiguration) { settings = configuration.audioEffects }

    func pipelineBuilt(host: FeatureHost) {
        if let filter { gst_object_unref(filter) }
        filter = nil
        built = nil
        guard settings.anyOn else { return }
        // scaletempo is there when the pitch is kept (`furnishPipeline`): it stays first.
        let keepPitch: Bool = {
            guard let existing = reel_get_object(host.pipelineElement, "audio-filter") else { return false }
            defer { gst_object_unref(existing) }
            return true
        }()
        guard let description = settings.filterDescription(keepPitch: keepPitch) else { return }
        var error: UnsafeMutablePointer<GError>?
        guard let bin = reel_parse_bin(description, &error) else {
            let text = error.map { String(cString: $0.pointee.message) } ?? "unknown"
            if let error { g_error_free(error) }
            Log.say("the sound's effects could not be built (\(text)): the sound plays without them")
            return
        }
        if settings.dialogueBoost, let convert = reel_bin_get_by_name(bin, "reel-dialogue") {
            reel_dialogue_boost_attach(convert, AudioEffectSettings.boostedCentre, AudioEffectSettings.boostedSurround)
            gst_object_unref(convert)
        }
        reel_set_object(host.pipelineElement, "audio-filter", bin)
        filter = bin
        built = description
        Log.debug(.engine, .info, "audio effects: \(description)")
    }

    func properties(host: FeatureHost) -> [Property] {
        [
            .choice("replaygain", AudioEffectSettings.ReplayGain.allCases.map(\.rawValue), "The level from the file's ReplayGain tags: no, track or album (mpv's).",
                    get: { _ in self.settings.replayGain.rawValue }) { word in
                self.change(host: host) { $0.replayGain = AudioEffectSettings.ReplayGain(rawValue: word) ?? .no }
            },
            .number("replaygain-preamp", NumberSpec(range: -15...15, step: 1, unit: "dB"), "dB added to the ReplayGain tags' gain.",
                    get: { _ in self.settings.replayGainPreamp }) { dB in self.change(host: host) { $0.replayGainPreamp = dB } },
            .flag("dialogue-boost", "Surround sound played on stereo with the centre channel (the dialogue) raised.",
                  get: { _ in self.settings.dialogueBoost }) { on in self.change(host: host) { $0.dialogueBoost = on } },
            .flag("night-mode", "The loud parts brought down and the quiet ones up (a compressor).",
                  get: { _ in self.settings.nightMode }) { on in self.change(host: host) { $0.nightMode = on } },
            .choice("equalizer-preset", AudioEffectSettings.presets.map(\.name) + ["custom"], "The equalizer's curve by name (custom: equalizer-gains' own).",
                    get: { _ in self.settings.equalizerPreset ?? "custom" }) { word in
                guard let preset = AudioEffectSettings.presets.first(where: { $0.name == word }) else {
                    throw IPCError(.invalidArgument, "A custom curve is set with “equalizer-gains”.")
                }
                self.change(host: host) { $0.equalizer = preset.gains }
            },
            Property("equalizer-gains", kind: .text, summary: "The equalizer's ten bands in dB (29 Hz to 15 kHz), separated by commas; -24 to 12 each.",
                     read: { _ in .string(self.settings.equalizerText) }) { value in
                guard let gains = AudioEffectSettings.gains(value.text) else {
                    throw IPCError(.invalidArgument, "“equalizer-gains” takes ten numbers (dB) separated by commas.")
                }
                self.change(host: host) { $0.equalizer = gains }
            },
        ]
    }

    /// Applies a change: on the elements in place when the filter keeps its shape, else by loading
    /// the item again at its position (nothing loaded: the next pipeline takes it).
    func change(host: FeatureHost, _ edit: (inout AudioEffectSettings) -> Void) {
        var next = settings
        edit(&next)
        guard next != settings else { return }
        let before = settings
        settings = next
        Log.debug(.engine, .info, "audio effects: \(next)")
        guard let item = host.currentItem else { return }
        if let filter, let built, Self.sameShape(before, next), next.anyOn {
            setLive(filter)
            self.built = built
            return
        }
        guard filter != nil || next.anyOn else { return }  // nothing was in place and nothing is wanted
        host.reload(item, at: host.reloadPosition)
    }

    /// Whether two settings make the same elements (only their values differ).
    static func sameShape(_ a: AudioEffectSettings, _ b: AudioEffectSettings) -> Bool {
        (a.replayGain == .no) == (b.replayGain == .no) && a.dialogueBoost == b.dialogueBoost && a.nightMode == b.nightMode
            && a.equalizerIsFlat == b.equalizerIsFlat
    }

    private func setLive(_ filter: UnsafeMutablePointer<GstElement>) {
        if let rg = reel_bin_get_by_name(filter, "reel-replaygain") {
            reel_set_bool(rg, "album-mode", settings.replayGain == .album ? 1 : 0)
            reel_set_double(rg, "pre-amp", settings.replayGainPreamp)
            gst_object_unref(rg)
        }
        if let eq = reel_bin_get_by_name(filter, "reel-equalizer") {
            for (band, gain) in settings.equalizer.enumerated() { reel_set_double(eq, "band\(band)", gain) }
            gst_object_unref(eq)
        }
    }
}

extension Player {
    /// The sound's effects as they are set (`AudioEffects`).
    public var audioEffects: AudioEffectSettings { features.first(AudioEffects.self)?.settings ?? AudioEffectSettings() }

    /// Sets the sound's effects (the command line's, before anything plays; or later).
    public func setAudioEffects(_ settings: AudioEffectSettings) {
        features.first(AudioEffects.self)?.change(host: self) { $0 = settings }
    }
}
