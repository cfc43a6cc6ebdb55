import ReelCore

/// Everything the window asks for. The window never acts on the player itself: it emits one of
/// these and waits for the next `PlayerViewState`.
public enum UIAction: Sendable, Equatable {
    case playPause
    /// Seek to an absolute position in seconds (the seek bar, on release).
    case seek(to: Double)
    /// Skip relative to the current position (arrow keys, skip buttons).
    case skip(by: Double)
    /// Linear volume 0…1.
    case setVolume(Double)
    case toggleMute
    case setRate(Double)
    case next
    case previous
    case toggleFullscreen
    case togglePlaylist
    /// Save the video frame on screen (`s`).
    case captureFrame
    /// Save the window as it looks (`Ctrl+s`).
    case captureWindow
    case openFiles([String])
    case openURL(String)
    /// Play the playlist row at this index (double-click, Enter).
    case playIndex(Int)
    /// Move playlist row `from` so that it lands before the row that was at `to` (0…count).
    case moveItem(from: Int, to: Int)
    case removeItem(Int)
    /// Play the item the metered policy refused, this once (the banner's button).
    case playAnyway
    /// The resume notice's "Start over": the item plays from its beginning, its place forgotten.
    case startOver
    /// The video menu's "Forget this file": what the resume book keeps of the item playing goes.
    case forgetFile
    /// The video menu opens: what it lists is read now (the sound outputs).
    case videoMenuOpening
    /// Ctrl+, and the video menu's "Preferences…": the session opens the window with what is in force.
    case openPreferences
    /// A row of the preferences window changed: reel.conf's option name and its value.
    case setPreference(key: String, value: String)
    /// The video menu's "Sound output": a device from audio-device-list, or "auto".
    case setAudioOutput(String)
    /// The tracks menu: an audio track, a subtitle track or none (nil).
    case selectAudioTrack(String)
    case selectSubtitleTrack(String?)
    /// The tracks menu's "Secondary subtitles": a subtitle file drawn at the top, or none (nil).
    case selectSecondarySubtitleTrack(String?)
    /// What network items do on a metered connection from now on (the video menu).
    case setMeteredPolicy(MeteredPolicy)
    case setHardwareDecoding(HardwareDecodingMode)
    /// The quality menu: "auto" or a rendition's index (`QualityChoice` text).
    case setQuality(String)
    /// Go to the live edge (the LIVE badge, End).
    case goLive
    /// `i`: the stats for 5 s; `I` (`sticky`): shown until `I` again (mpv's stats keys).
    case showStats(sticky: Bool)
    case quit
    /// A command in input.conf's form (`add volume 5`): a key of the built-in input.conf
    /// (`DefaultKeys`), run on the socket's road.
    case command(String)
}
