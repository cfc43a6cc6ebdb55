import ReelCore

/// mpv's `volume` and `volume-max` (`--volume-max`, 1.3: mpv's 130 %): the volume in percent,
/// held to the limit wherever it is set from (the socket, input.conf, the keys, MPRIS). Owns the
/// limit; the volume itself is playbin3's.
@MainActor
final class VolumeLimit: PlayerFeature {
    private(set) var limit = 1.3

    func configure(_ configuration: PlayerConfiguration) { limit = configuration.volumeMax }
    func readout(into snapshot: inout PlaybackSnapshot, host: FeatureHost) { snapshot.volumeMax = limit }

    func properties(host: FeatureHost) -> [Property] {
        var volume = Property.number("volume", NumberSpec(range: IPCVolume.range, step: 2, unit: "%"), "The volume in percent (held to volume-max).",
                                     get: { $0.volume * 100 }) { v in host.volume = min(self.limit, max(0, v / 100)) }
        volume.bounds = { s in 0...(s.volumeMax * 100).rounded() }
        return [
            volume,
            .number("volume-max", NumberSpec(range: 100...150, unit: "%"), "The most the volume goes to (--volume-max).",
                    get: { ($0.volumeMax * 100).rounded() }),
        ]
    }
}
