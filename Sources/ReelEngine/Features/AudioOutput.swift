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

    /// A device asked for at the start that the server does not have (headphones since unplugged).
    private var missingAtStart: String?

    func configure(_ configuration: PlayerConfiguration) {
        if let d = configuration.audioDevice, d != "auto" {
            let wanted = Self.mpvName(d)
            // pulsesink cannot open a sink that is not there: the default plays, and Reel says so.
            guard Self.devices().contains(where: { $0.name == wanted }) else { missingAtStart = wanted; return }
            device = wanted
            chosen = true
        }
    }

    func itemStarted(_ item: PlaybackItem, switched: Bool, host: FeatureHost) {
        guard let missing = missingAtStart else { return }
        missingAtStart = nil
        host.emit(.warning(PlaybackError(kind: .output, message: "There is no sound output “\(missing.dropFirst("pulse/".count))” now: the sound plays on the default output.",
                                         uri: host.currentURI)))
    }

    // autoaudiosink makes its pulsesink on the way to PAUSED: it is told once it exists.
    func pipelineBuilt(host: FeatureHost) { apply(host: host) }
    func prerolled(host: FeatureHost) { apply(host: host) }

    /// The chosen device's description ("Headphones"), for saying it went.
    private var label: String?
    /// When the last look at where the sound plays was (`tick`).
    private var lastLook = 0.0

    /// A device chosen that went away (headphones unplugged, an HDMI screen off): the sound server
    /// moves the stream to its default and playback goes on; Reel says so and is on auto again.
    /// Looked at once a second while a device is chosen (a round trip to the server), never on
    /// the default path.
    func tick(host: FeatureHost) {
        guard chosen, device != "auto" else { return }
        let now = Player.monotonicSeconds
        guard now - lastLook >= 1 else { return }
        lastLook = now
        guard let p = reel_audio_current_device(host.pipelineElement) else { return }
        let current = "pulse/" + String(cString: p)
        reel_audio_free(p)
        if current == device {
            if label == nil { label = Self.devices().first { $0.name == device }?.description }
            return
        }
        guard !Self.devices().contains(where: { $0.name == device }) else { return }
        let gone = label ?? String(device.dropFirst("pulse/".count))
        Log.debug(.engine, .info, "audio device \(device) went away: on \(current)")
        device = "auto"
        label = nil
        host.emit(.warning(PlaybackError(kind: .output, message: "The sound output “\(gone)” went away: the sound plays on the default output.",
                                         uri: host.currentURI)))
    }

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
        label = nil
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
