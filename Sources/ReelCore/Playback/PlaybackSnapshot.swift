import Foundation

/// The state a remote control reads (IPC `get_property`, MPRIS properties), taken in one piece on
/// the main thread from whatever drives playback (a plain player or the queue controller).
public struct PlaybackSnapshot: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public var uri: String
        public var title: String?
        /// The item's identity in the queue (kept when the queue is reordered).
        public var id: String?
        public init(uri: String, title: String? = nil, id: String? = nil) { self.uri = uri; self.title = title; self.id = id }
    }

    /// MPRIS LoopStatus: None, Track, Playlist.
    public enum LoopMode: String, Sendable, CaseIterable {
        case none = "None", track = "Track", playlist = "Playlist"
    }

    public var items: [Entry]
    /// The current item's index in `items`, nil when idle.
    public var index: Int?
    public var position: Double
    public var duration: Double?
    public var status: ItemStatus
    public var timeControl: TimeControlStatus
    /// The user wants playback to run (play was pressed), whatever the pipeline does.
    public var wantsToPlay: Bool
    /// True after stop (MPRIS "Stopped"), until play or a load.
    public var isStopped: Bool
    public var rate: Double
    /// Linear, 0…1 (up to 10 accepted).
    public var volume: Double
    public var muted: Bool
    public var mediaInfo: MediaInfo
    public var isSeeking: Bool
    public var loop: LoopMode
    public var shuffle: Bool
    /// Seconds behind the live edge, for a live item with a seekable window.
    public var behindLiveEdge: Double?
    /// A live item's window on the position scale (its end is the live edge), the wall-clock
    /// time of the frame on screen (PROGRAM-DATE-TIME), its mode and programme.
    public var liveWindow: ClosedRange<Double>?
    public var epochTime: Double?
    /// All of a live item's place at once (the window's LIVE badge and wall-clock labels).
    public var live: LivePosition?
    public var liveMode: LiveMode?
    public var program: LiveProgram?
    /// The desktop's view of the network, and the metered policy in force.
    public var network: NetworkState = .assumed
    public var meteredPolicy: MeteredPolicy = .default
    /// How the picture fills the video area (`aspect`).
    public var aspectMode: AspectMode = .fit
    /// `--hwdec` from the next item (`hwdec`).
    public var hardwareDecoding: HardwareDecodingMode = .auto
    /// The item's tracks, the stream ids playing, the chosen audio and subtitle track ids, and
    /// whether subtitles are shown.
    public var tracks: [MediaTrack] = []
    public var selectedStreams: [String] = []
    public var audioTrack: String?
    public var subtitleTrack: String?
    public var subtitlesShown = true
    /// The subtitle file drawn at the top besides the primary (`secondary-sid`), when shown.
    public var secondarySubtitleTrack: String?
    /// `sub-scale`, `sub-delay` (seconds) and `sub-pos` (0–150); `sub-text` (the text Reel
    /// draws now, nil: none).
    public var subtitleLook = SubtitleAdjustments()
    public var subtitleText: String?
    /// How the current item plays (`qoe`).
    public var qoe = PlaybackQoE()
    /// The current adaptive stream's renditions, the choice in force and the pinned one.
    public var renditions: [HLSVariant] = []
    public var quality: QualityChoice = .auto
    public var pinnedRendition: Int?
    /// The current item's own picture (an audio file's cover art), as the file holds it (JPEG,
    /// PNG …): what the window shows when the item has no video. Not sent over the socket.
    public var coverArt: Data?
    /// The item's chapters in time order, and the one playing (-1 before the first; nil without).
    public var chapters: [Chapter] = []
    public var chapter: Int?
    /// The current item's A-B loop, the audio delay (seconds) and the picture controls.
    public var abLoop = ABLoop()
    public var audioDelay = 0.0
    /// The most the volume goes to (`--volume-max`, mpv's `volume-max`; 1.3 is 130 %).
    public var volumeMax = 1.3
    /// For the stats (`PlaybackStats`): the picture's frame rate, an adaptive demuxer's buffer and
    /// throughput, a local file's average bitrate (size over duration).
    public var videoFrameRate: Double?
    public var adaptive: AdaptiveStats?
    public var fileBitrate: Int?
    public var picture = PictureAdjustments()
    public var videoGeometry = VideoGeometry()
    /// The current item played to its end and nothing moved it since (mpv's `eof-reached`).
    public var reachedEnd = false

    public init(items: [Entry] = [], index: Int? = nil, position: Double = 0, duration: Double? = nil, status: ItemStatus = .unknown,
                timeControl: TimeControlStatus = .paused, wantsToPlay: Bool = false, isStopped: Bool = false, rate: Double = 1,
                volume: Double = 1, muted: Bool = false, mediaInfo: MediaInfo = MediaInfo(), isSeeking: Bool = false,
                loop: LoopMode = .none, shuffle: Bool = false) {
        self.items = items; self.index = index; self.position = position; self.duration = duration; self.status = status
        self.timeControl = timeControl; self.wantsToPlay = wantsToPlay; self.isStopped = isStopped; self.rate = rate
        self.volume = volume; self.muted = muted; self.mediaInfo = mediaInfo; self.isSeeking = isSeeking
        self.loop = loop; self.shuffle = shuffle
    }

    public var current: Entry? { index.flatMap { items.indices.contains($0) ? items[$0] : nil } }
    public var hasNext: Bool { (index.map { $0 + 1 < items.count } ?? !items.isEmpty) || (loop == .playlist && !items.isEmpty) }
    public var hasPrevious: Bool { (index ?? 0) > 0 || (loop == .playlist && !items.isEmpty) }
}
