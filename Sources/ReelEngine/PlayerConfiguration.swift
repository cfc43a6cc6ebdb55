import Foundation
import ReelCore

/// How a `Player` is built. Sinks are GStreamer element descriptions, as gst-play-1.0 takes them
/// ("fakesink sync=true", "ximagesink", "autoaudiosink").
public struct PlayerConfiguration: Sendable {
    public var audioSink: String?
    public var videoSink: String?
    /// The fine progress interval for UIs, in seconds (100–250 ms is sensible).
    public var progressInterval: Double
    /// `--clock-at`: a live item's wall clock as if it read this when its first frame played, and
    /// ran at the media's pace from there (the live labels, the LIVE badge, `epoch-time`), so a
    /// UI test's golden of a live window matches on every run. nil: the real clock.
    public var clockAt: Date?
    /// `--volume-max`: the most the volume goes to (1.3: mpv's 130 %).
    public var volumeMax = 1.3
    /// `--audio-device`: mpv's name of the sound's output (`pulse/NAME`), nil: the default.
    public var audioDevice: String?
    /// The sound's effects at the start (`--replaygain`, `--night-mode` …; all off by default).
    public var audioEffects = AudioEffectSettings()
    public var endAction: EndAction
    /// Keep the audio pitch at rates other than 1 (scaletempo as the audio filter).
    public var keepPitch: Bool
    /// The User-Agent sent on HTTP requests.
    public var userAgent: String
    /// Seconds an HTTP connection or read may stall before the item fails with a `.timeout`
    /// error (souphttpsrc's `timeout`; 1…3600, GStreamer's default is 15).
    public var networkTimeout: UInt32 = 15
    /// Seconds a local file may take to start (preroll) before the watchdog probes it; 0
    /// disables. Guards against GStreamer losing a demuxer's error (see Player's preroll
    /// watchdog): a file the probe cannot open fails, one it opens gets more time (a slow
    /// machine), so the bound can be short.
    public var localPrerollTimeout: Double = 5
    /// Seconds playback may sit still at an item's very end (the last half second) without EOS
    /// before the item counts as played and the next load gets a fresh pipeline; 0 disables.
    /// Guards against playbin3 1.22 stopping at the end when the URI that about-to-finish took
    /// fails to open (see Player's end-stall watchdog).
    public var endStallTimeout: Double = 3
    /// Build the video filter that lets the picture fill or stretch to the video area
    /// (`AspectMode`, `Player.setAspectMode`): for windows; off, the picture is always fitted.
    public var aspectModes = false
    /// The user's languages, subtitle files and look, and hardware decoding (`PlaybackPreferences`).
    public var preferences = PlaybackPreferences()
    /// Build the text overlay that draws external subtitle files (beside a local file, or
    /// `preferences.subtitleFiles`); off, they are neither looked for nor listed.
    public var subtitleOverlay = true
    /// What a source's first bytes may not be unless it comes from a loopback gateway of this
    /// process (`ContentGuard`): a web page never plays; Reel's sessions refuse DASH and HLS that
    /// did not go through the gateway's bounds too, and the queue routes them there. The engine
    /// alone (its tests, a player given a URI) plays manifests as they come.
    public var unroutedManifests: ContentGuard.Manifests = .allowed

    public init(audioSink: String? = nil, videoSink: String? = nil, progressInterval: Double = 0.2,
                endAction: EndAction = .pause, keepPitch: Bool = true, userAgent: String = "Reel/0.1") {
        self.audioSink = audioSink
        self.videoSink = videoSink
        self.progressInterval = progressInterval
        self.endAction = endAction
        self.keepPitch = keepPitch
        self.userAgent = userAgent
    }
}
