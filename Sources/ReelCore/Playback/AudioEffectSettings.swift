/// The sound's effects, each off by default and absent from the pipeline while off (a user who
/// never turns one on pays nothing): ReplayGain from the file's tags (mpv's `replaygain`,
/// GStreamer's `rgvolume`), a dialogue boost for surround sound played on stereo (a downmix that
/// raises the centre channel, `audioconvert`'s mix matrix), a night mode (the loud parts brought
/// down and the whole raised, `audiodynamic` then `volume`), and a 10-band equalizer
/// (`equalizer-10bands`) with presets. Pure: what the filter is, table-tested.
public struct AudioEffectSettings: Sendable, Equatable {
    public enum ReplayGain: String, Sendable, CaseIterable { case no, track, album }

    public var replayGain = ReplayGain.no
    /// mpv's `replaygain-preamp`: dB added to the tag's gain.
    public var replayGainPreamp = 0.0
    public var dialogueBoost = false
    public var nightMode = false
    /// dB for each of `equalizerBands` (0: flat).
    public var equalizer = [Double](repeating: 0, count: 10)

    public init() {}

    /// The bands' centres (Hz), as `equalizer-10bands` has them.
    public static let equalizerBands = [29, 59, 119, 237, 474, 947, 1889, 3770, 7523, 15011]
    public static let equalizerRange = -24.0...12.0

    /// Named curves (dB per band), as players' equalizers offer them.
    public static let presets: [(name: String, gains: [Double])] = [
        ("flat", [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
        ("bass", [6, 5, 4, 2, 0, 0, 0, 0, 0, 0]),
        ("treble", [0, 0, 0, 0, 0, 1, 3, 5, 6, 6]),
        ("vocal", [-3, -3, -2, 0, 3, 4, 4, 2, 0, -2]),
        ("rock", [5, 4, 2, -1, -2, -1, 2, 4, 5, 5]),
        ("pop", [-1, 1, 3, 4, 3, 0, -1, -1, 1, 2]),
        ("jazz", [3, 2, 1, 2, -1, -1, 0, 1, 2, 3]),
        ("classical", [4, 3, 2, 1, 0, 0, 0, 1, 2, 3]),
        ("loudness", [5, 4, 1, 0, -1, 0, 0, 1, 4, 5]),
    ]

    /// The preset the gains are, or nil (a curve of the user's own).
    public var equalizerPreset: String? { Self.presets.first { $0.gains == equalizer }?.name }

    public var equalizerIsFlat: Bool { equalizer.allSatisfy { $0 == 0 } }

    /// Whether any effect is on (else no filter at all).
    public var anyOn: Bool { replayGain != .no || dialogueBoost || nightMode || !equalizerIsFlat }

    /// `equalizer-gains`' text: ten dB values separated by commas.
    public var equalizerText: String { equalizer.map { NumberSpec.format($0) }.joined(separator: ",") }

    /// Ten gains from `equalizer-gains`' text (commas or spaces), each within the range; nil
    /// when it is not ten numbers.
    public static func gains(_ text: String) -> [Double]? {
        let parts = text.split(whereSeparator: { $0 == "," || $0 == " " })
        guard parts.count == 10 else { return nil }
        let values = parts.compactMap { Double($0) }
        guard values.count == 10, values.allSatisfy(\.isFinite) else { return nil }
        return values.map { min(equalizerRange.upperBound, max(equalizerRange.lowerBound, $0)) }
    }

    /// The centre channel's weight beside a front channel's (1) in each stereo side with the boost,
    /// and a rear or side channel's (rows normalised: the centre is about 6 dB over audioconvert's
    /// own 5.1 downmix, where it is 0.7 of a side's).
    public static let boostedCentre = 2.0
    public static let boostedSurround = 0.5

    /// The audio filter's elements for the effects on (GStreamer's launch syntax, each named
    /// `reel-…` so the player sets them), `scaletempo` first when the pitch is kept; nil when
    /// nothing is on and the pitch is not kept (no filter: the default path as it was).
    public func filterDescription(keepPitch: Bool) -> String? {
        var parts: [String] = keepPitch ? ["scaletempo"] : []
        if anyOn {
            if dialogueBoost {
                // Its mix matrix is set for a surround input at its caps (`reel_dialogue_boost_attach`).
                parts.append("audioconvert name=reel-dialogue ! audio/x-raw,channels=2")
            }
            if replayGain != .no {
                parts.append("audioconvert ! rgvolume name=reel-replaygain album-mode=\(replayGain == .album) pre-amp=\(NumberSpec.format(replayGainPreamp))")
            }
            if nightMode {
                parts.append("audioconvert ! audiodynamic name=reel-night mode=compressor characteristics=hard-knee threshold=0.125 ratio=0.25")
                parts.append("volume name=reel-night-gain volume=2.0")
            }
            if !equalizerIsFlat {
                let bands = equalizer.enumerated().map { "band\($0.offset)=\(NumberSpec.format($0.element))" }.joined(separator: " ")
                parts.append("audioconvert ! equalizer-10bands name=reel-equalizer \(bands)")
            }
            parts.append("audioconvert")
        }
        return parts.isEmpty ? nil : parts.joined(separator: " ! ")
    }
}
