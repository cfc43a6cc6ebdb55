import Foundation
import ReelCore

/// What a playback session was asked to do, as parsed from the command line.
struct PlaybackOptions: Sendable {
    var inputs: [String]
    var headless: Bool
    var exitAtEnd: Bool
    var audioSink: String?
    var videoSink: String?
    var printEvents: Bool
    var printProgress: Bool
    var progressInterval: Double
    var volume: Double?
    var mute: Bool
    var startPosition: Double?
    /// `--pause`: the first item is loaded and shown, paused (as mpv's `--pause`).
    var startPaused = false
    /// mpv's autoload: one local file opened in the window queues its folder's media files around
    /// it (`--autoload`, on for windows; headless sessions, QA's and scripts', never).
    var autoload = false
    /// `--geometry`: the window's size and place (nil: the size it was left at, else the default).
    var geometry: WindowGeometry?
    /// `--clock-at`: a live item's clock rebased there (`PlayerConfiguration.clockAt`).
    var clockAt: Date?
    /// `--dump-tree FILE`: the window's widget tree written there at the first frame.
    var dumpTree: String?
    /// `--ytdl`, `--ytdl-format`, `--ytdl-raw-options`: web pages through yt-dlp (`YTDLHelper`).
    var ytdl = YTDLSettings()
    /// `--replaygain`, `--dialogue-boost`, `--night-mode`, `--equalizer` (`AudioEffects`).
    var audioEffects = AudioEffectSettings()
    /// `--audio-device`: the sound's output (`PlayerConfiguration.audioDevice`).
    var audioDevice: String?
    /// One instance per user session: this window owns the app's name, or hands its files to the
    /// one that does (not under --new-window, nor in a scripted run: --ipc, --exit-at-end).
    var singleInstance = false
    /// Started by D-Bus activation (`--gapplication-service`): the files come with the Open call.
    var dbusService = false
    /// `--enqueue`: files handed over join the queue without interrupting it.
    var enqueue = false
    /// `--title`: the window's title instead of the item's.
    var windowTitle: String?
    /// The size it was left at is read and written (`--no-remember-window`, and never under `--geometry`).
    var rememberWindow = true
    /// GTK's animations (`--no-animations` turns them off).
    var animations = true
    /// `--volume-max`: the most the volume goes to (1.3: mpv's 130 %).
    var volumeMax = 1.3
    /// The user's key bindings (mpv's input.conf), nil for the default keys only.
    var inputConf: String?
    /// Where the resume positions are kept (`ResumeKeeper`); nil: every item starts at its
    /// beginning. The `reel` command sets it (`ResumeFile.defaultPath`) unless --no-resume, so
    /// in-process sessions keep no state unless they give one.
    var resumeFile: String?
    /// `--alang`, `--slang`, `--sub-file`, `--sub-scale`, `--sub-delay`, `--sub-pos`, `--hwdec`:
    /// handed to the player as they are.
    var preferences = PlaybackPreferences()
    /// `--events-subs`.
    var printSubtitles = false
    var shuffle: Bool = false
    var repeatMode: RepeatMode = .off
    /// The queue index to start at (before shuffling: the shuffled queue starts with it).
    var startIndex: Int?
    /// Save the queue (after shuffling) as M3U8 or XSPF before playing.
    var savePlaylist: String?
    /// How often a network item that failed on the network or with a 5xx is tried again.
    var retryPolicy = RetryPolicy()
    /// What network items do on a metered connection or with no network (`--metered`, …).
    var networkRule = NetworkRule()
    /// The quality choice for adaptive streams (`--quality`).
    var quality: QualityChoice = .auto
    /// The command line's live mode and programme (`--live-mode` …), for items without their own.
    var live: LiveProgram?
    /// Where the last measured throughput is kept between runs (nil: not kept).
    var throughputFile: String?
    /// Seconds an item started without a network waits for one (`--offline-wait`).
    var offlineWait: Double = 30
    var remote = RemoteOptions()
    /// `reel review`: the window hosts a review (`ReviewSession`).
    var review: ReviewOptions?
    var protected = ProtectedStreamSettings()
}
