import ArgumentParser
import ReelCore

/// The sound's effects at the start, as the properties of the same names set them later
/// (`AudioEffects`): reel.conf takes them too (`replaygain=track`, `night-mode`).
struct SoundOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The level from the files' ReplayGain tags: no (default), track or album (mpv's --replaygain).", valueName: "no|track|album"))
    var replaygain: String?

    @Option(help: ArgumentHelp("dB added to the ReplayGain tags' gain (-15 to 15).", valueName: "DB"))
    var replaygainPreamp: Double?

    @Flag(help: "Surround sound played on stereo with the centre channel, where the dialogue is, raised.")
    var dialogueBoost = false

    @Flag(help: "The loud parts brought down and the quiet ones up (a compressor), for the night.")
    var nightMode = false

    @Option(help: ArgumentHelp("The 10-band equalizer: a preset (flat, bass, treble, vocal, rock, pop, jazz, classical, loudness) or ten dB values separated by commas (29 Hz to 15 kHz, -24 to 12 each).", valueName: "PRESET|GAINS"))
    var equalizer: String?

    func settings() throws -> AudioEffectSettings {
        var s = AudioEffectSettings()
        if let replaygain {
            guard let mode = AudioEffectSettings.ReplayGain(rawValue: replaygain) else { throw ValidationError("--replaygain takes no, track or album.") }
            s.replayGain = mode
        }
        if let replaygainPreamp {
            guard replaygainPreamp.isFinite, (-15...15).contains(replaygainPreamp) else { throw ValidationError("--replaygain-preamp takes -15 to 15 (dB).") }
            s.replayGainPreamp = replaygainPreamp
        }
        s.dialogueBoost = dialogueBoost
        s.nightMode = nightMode
        if let equalizer {
            if let preset = AudioEffectSettings.presets.first(where: { $0.name == equalizer }) {
                s.equalizer = preset.gains
            } else if let gains = AudioEffectSettings.gains(equalizer) {
                s.equalizer = gains
            } else {
                throw ValidationError("--equalizer takes a preset (\(AudioEffectSettings.presets.map(\.name).joined(separator: ", "))) or ten dB values separated by commas.")
            }
        }
        return s
    }
}
