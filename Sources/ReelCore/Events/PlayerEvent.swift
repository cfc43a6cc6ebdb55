import Foundation

/// Everything the engine (and the queue above it) reports, in order, on the main thread.
public enum PlayerEvent: Sendable, Equatable {
    /// A new item became current. `index` is its place in the queue when there is one.
    case itemChanged(index: Int?, uri: String, title: String?)
    case status(ItemStatus)
    case timeControl(TimeControlStatus)
    case duration(Double?)
    case mediaInfo(MediaInfo)
    /// `live`: where a live item is in its window (`LiveTimeline`); `position` is then on its scale.
    case progress(position: Double, duration: Double?, tick: ProgressTick, live: LivePosition? = nil)
    case seeked(position: Double)
    case rate(Double)
    case volume(volume: Double, muted: Bool)
    case buffering(percent: Int)
    /// The item played to its end (before the end action runs).
    case playedToEnd
    /// The current item failed; the status also turns `.failed`.
    case error(PlaybackError)
    /// Something the user should know about the current item that did not stop it: it ended
    /// long before its duration (`EarlyEnd`), say. Comes before that item's `.playedToEnd`.
    case warning(PlaybackError)
    /// The current network item failed in a way worth another try (`RetryPolicy`): it is loaded
    /// again after `delay` seconds. `attempt` counts the retries (1 for the first); no `.error`
    /// is reported for a failure that is retried, only for the last one.
    case retrying(attempt: Int, delay: Double, error: PlaybackError)
    /// The queue ran out of items (or a single item ended with nothing after it), or the user
    /// quit: `reason` says which (`ended`, `error`: the last item failed, `user-exited`).
    case finished(played: Int, failed: Int, reason: EndReason)
    /// The desktop's view of the network changed (`NetworkState`): the queue's, not an item's.
    case network(NetworkState)
    /// The cap on adaptive streams' bitrate changed because of the metered policy (`NetworkRule`):
    /// `maxBitrate` nil when lifted. (The adaptive-quality work will report the rendition itself.)
    case bitrateCap(maxBitrate: Int?, reason: String)
    /// The rendition choice for the current adaptive stream took effect: `index` (into the
    /// master's variants, I-frame ones excluded), its height and BANDWIDTH when one is pinned,
    /// nil in auto; `mode` "auto" or "manual"; `reason` "start", "manual" or "policy".
    case rendition(index: Int?, height: Int?, bandwidth: Int?, mode: String, reason: String)
    /// A live item started: in which mode, where (`live`), and the rule that chose the distance
    /// from the edge (`start`, `hold-back`, `target-duration`, `program-start`, `start-offset`).
    case liveStart(mode: LiveMode, rule: String, live: LivePosition)
    /// The wall clock passed the programme end of a live or restart item; playback goes on.
    case liveProgramEnd(programEnd: Date)
    /// The item starts where it was left last time (`ResumeRule`): at `position`, in seconds.
    case resumed(position: Double)
    /// The item's tracks, which of them play (stream ids), and whether subtitles are shown: when
    /// its stream collection is known and whenever the choice changes.
    case tracks([MediaTrack], selected: [String], subtitlesShown: Bool)
    /// The sound server took the audio focus (a call: playback paused, `held` false) or gave it
    /// back (`held` true: playback resumed, as it was playing when it was taken).
    case audioFocus(held: Bool)
    /// The subtitle text on screen changed (Reel-drawn subtitles: files beside the item,
    /// `--sub-file`): nil when none is shown; `position` is the item's time of the first frame
    /// that shows it (nil when the subtitles were turned off). With `--events-subs`.
    case subtitle(text: String?, position: Double?)
    /// The item's chapters (a Matroska file's table of contents), in time order: when they are
    /// read, and again if the duration trims them.
    case chapters([Chapter])
    /// The A-B loop's points changed (mpv's `ab-loop-a`, `ab-loop-b`; nil: not set).
    case abLoop(a: Double?, b: Double?)
    /// The audio delay changed (seconds the sound plays later than the picture).
    case audioDelay(Double)
    /// A picture control changed (`brightness`, `contrast`, `saturation`, `gamma`, `hue`: -100…100).
    case picture(control: String, value: Int)
    /// The picture's rotation, zoom or pan changed (mpv's `video-rotate`, `video-zoom`, `video-pan-x/y`).
    case videoGeometry(rotate: Int, zoom: Double, panX: Double, panY: Double)
}

extension PlayerEvent {
    /// The event's name in the JSON stream.
    public var name: String {
        switch self {
        case .itemChanged: "item"
        case .status: "status"
        case .timeControl: "time-control"
        case .duration: "duration"
        case .mediaInfo: "media-info"
        case .progress(_, _, let tick, _): tick == .fine ? "progress" : "tick"
        case .seeked: "seeked"
        case .rate: "rate"
        case .volume: "volume"
        case .buffering: "buffering"
        case .playedToEnd: "end"
        case .error: "error"
        case .warning: "warning"
        case .retrying: "retry"
        case .finished: "finished"
        case .network: "network"
        case .bitrateCap: "bitrate-cap"
        case .rendition: "rendition"
        case .liveStart: "live"
        case .liveProgramEnd: "live-program-end"
        case .resumed: "resumed"
        case .subtitle: "subtitle"
        case .tracks: "tracks"
        case .audioFocus: "audio-focus"
        case .chapters: "chapters"
        case .abLoop: "ab-loop"
        case .audioDelay: "audio-delay"
        case .picture: "picture"
        case .videoGeometry: "video-geometry"
        }
    }
}
