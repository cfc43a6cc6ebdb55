import CGStreamer

/// Audio focus, the sound server's side: the audio stream says what it is, so PulseAudio's (and
/// pipewire-pulse's) policies apply to it — `media.role=video` (what module-role-cork and
/// WirePlumber's role policies match: a call corks it), the application's name, id and icon
/// (the desktop's volume mixer shows them). Set on pulsesink when playbin3 adds one (directly,
/// or inside autoaudiosink), from element-setup (any thread). The cork request that comes back
/// is `Player.onRequestState`.
enum AudioStreamRole {
    static let properties = "props,media.role=video,application.name=Reel,application.id=reel,application.icon_name=reel"

    static func configure(_ element: UnsafeMutablePointer<GstElement>) {
        guard let name = reel_element_factory_name(element), String(cString: name) == "pulsesink" else { return }
        _ = reel_set_structure_string(element, "stream-properties", properties)
    }
}
