import CReelFrame
import ReelCore

/// The sound's output device (mpv's `audio-device`, `audio-device-list`; `--audio-device`): the
/// headphones or the HDMI instead of the sound server's default. "auto" (the default) leaves the
/// sink alone; a PulseAudio sink (`pulse/NAME`, mpv's names) is set on the pipeline's pulsesink,
/// which moves its stream there at once (and every item after it starts there). Nothing runs on
/// the default path: the device list is read only when asked for.
@MainActor
final class AudioOutput: PlayerFeature {
    private(set) var device = "auto"
    /// A device was chosen (or chosen and then auto again): each pipeline's pulsesink is told.
    private var chosen = false

    func configure(_ configuration: PlayerConfiguration) {
        if let d = configuration.audioDevice, d != "auto" {
            device = Self.mpvName(d)
            chosen = true
        }
    }

    // autoaudiosink makes its pulsesink on the way to PAUSED: it is told once it exists.
    func pipelineBuilt(host: FeatureHost) { apply(host: host) }
    func prerolled(host: FeatureHost) { apply(host: host) }

    func properties(host: FeatureHost) -> [Property] {
        [
            Property("audio-device", kind: .text, summary: "The sound's output: auto, or a device from audio-device-list (pulse/NAME).",
                     read: { _ in .string(self.device) }) { value in try self.set(value.text, host: host) },
            .value("audio-device-list", "The sound outputs there are: name (pulse/NAME) and description; auto first.") { _ in
                .array(([(name: "auto", description: "Autoselect device", isDefault: false)] + Self.devices()).map {
                    .object([("name", .string($0.name)), ("description", .string($0.description))])
                })
            },
        ]
    }

    func set(_ name: String, host: FeatureHost) throws {
        let wanted = Self.mpvName(name)
        if wanted != "auto" {
            guard Self.devices().contains(where: { $0.name == wanted }) else {
                throw IPCError(.unavailable, "There is no audio device “\(name.prefix(80))” (see audio-device-list).")
            }
        }
        guard wanted != device else { return }
        device = wanted
        chosen = true
        Log.debug(.engine, .info, "audio device: \(wanted)")
        apply(host: host)
    }

    private func apply(host: FeatureHost) {
        guard chosen else { return }
        // Back to auto: the server's default sink by its name (pulsesink keeps a stream where it
        // is when its device is only cleared).
        let name = device == "auto" ? Self.devices().first { $0.isDefault }?.name : device
        let sink = name.map { String($0.dropFirst("pulse/".count)) }
        _ = reel_audio_set_device(host.pipelineElement, sink)
    }

    /// mpv's name of a device: `pulse/NAME` (a bare NAME is taken as PulseAudio's).
    static func mpvName(_ name: String) -> String { name == "auto" || name.hasPrefix("pulse/") ? name : "pulse/" + name }

    /// PulseAudio's sinks now, by GStreamer's device monitor.
    static func devices() -> [(name: String, description: String, isDefault: Bool)] {
        let capacity = 64
        var names = [UnsafeMutablePointer<CChar>?](repeating: nil, count: capacity)
        var descriptions = [UnsafeMutablePointer<CChar>?](repeating: nil, count: capacity)
        var defaultIndex: Int32 = -1
        let n = Int(reel_audio_sinks(&names, &descriptions, Int32(capacity), &defaultIndex))
        var out: [(name: String, description: String, isDefault: Bool)] = []
        for i in 0..<n {
            if let name = names[i], let description = descriptions[i] {
                out.append(("pulse/" + String(cString: name), String(cString: description), i == Int(defaultIndex)))
            }
            reel_audio_free(names[i])
            reel_audio_free(descriptions[i])
        }
        return out
    }
}
