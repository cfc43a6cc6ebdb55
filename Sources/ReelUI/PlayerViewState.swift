import Foundation
import ReelCore

/// Everything the window shows, as plain values. The app builds it from player and queue events;
/// the window renders it and nothing else, so a state always looks the same (screenshot tests).
public struct PlayerViewState: Sendable, Equatable {
    /// The item's title (the window title, with the pinned rendition's height); nil when nothing
    /// is loaded.
    public var title: String?
    /// The item's own title, as its `item` event gave it.
    public var itemTitle: String?
    /// What a live stream says plays now (an internet radio's song), shown before the item's title.
    public var nowPlaying: String?
    /// The pinned rendition's height, shown after it.
    public var pinnedHeight: Int?
    public var position: Double = 0
    public var duration: Double?
    public var timeControl: TimeControlStatus = .paused
    /// Whether the user asked to play (the play/pause button shows "pause" while waiting, too).
    public var wantsToPlay = false
    public var volume: Double = 1
    /// The most the volume goes to (mpv's `volume-max`: 130 %; `--volume-max`, at most 150 %).
    public var volumeMax: Double = PlayerViewState.defaultVolumeMax
    public static let defaultVolumeMax = 1.3
    public var isMuted = false
    public var rate: Double = 1
    /// "“name” could not be played: <PlaybackError.message>", nil when there is no error.
    public var errorBanner: String?
    /// The banner offers "Play anyway" (an item the metered policy refused).
    public var offersPlayAnyway = false
    /// Where the current item was resumed (the notice with "Start over"); nil hides it.
    public var resumedAt: Double?
    /// What Reel opened lately (the desktop's recent files), newest first: "Open recent".
    public var recent: [RecentEntry] = []

    public struct RecentEntry: Equatable, Sendable {
        public var uri: String
        public var title: String
        public init(uri: String, title: String) { self.uri = uri; self.title = title }
    }
    /// The sound outputs (the socket's audio-device-list: `pulse/NAME` and a description, "auto"
    /// first), read when the video menu opens, and the one in force: "Sound output".
    public var audioOutputs: [AudioOutputEntry] = []
    public var audioOutput = "auto"

    public struct AudioOutputEntry: Equatable, Sendable {
        public var name: String
        public var description: String
        public init(name: String, description: String) { self.name = name; self.description = description }
    }
    /// The metered-network policy in force (the video menu's setting).
    public var meteredPolicy: MeteredPolicy = .default
    /// `--hwdec`, shown in the video menu.
    public var hardwareDecoding: HardwareDecodingMode = .auto
    public var isFullscreen = false
    public var isPlaylistVisible = false
    public var playlist: [PlaylistRow] = []
    public var canGoPrevious = false
    public var canGoNext = false
    public var isSeekable = true
    /// The quality menu (adaptive streams only: empty hides it), the entry chosen and the
    /// button's text.
    public var qualityEntries: [QualityEntry] = []
    public var qualityChoice = "auto"
    public var qualityLabel = tr("Auto")
    /// The tracks menu: the item's tracks, the chosen audio and subtitle track, whether
    /// subtitles are shown.
    public var tracks: [MediaTrack] = []
    public var audioTrack: String?
    public var subtitleTrack: String?
    public var subtitlesShown = true
    /// The subtitle file drawn at the top besides the primary (none: nil).
    public var secondarySubtitleTrack: String?
    /// What the video area shows when the item has no video: its cover art (the file's bytes),
    /// as Totem, VLC and mpv do; nil: black.
    public var coverArt: Data?
    /// mpv's stats panel (`i`, `I`): its lines, nil while hidden.
    public var stats: [String]?
    /// The item's chapters: marks on the seek bar, their titles in its tooltip.
    public var chapters: [Chapter] = []

    /// A live item's window (`LivePosition`): the seek bar spans it, the labels show wall-clock
    /// time when it has PROGRAM-DATE-TIME, and the LIVE badge shows the distance from the edge.
    public var live: LivePosition?
    /// The zone of the wall-clock labels (the machine's; tests pin it).
    /// nil: the system's, looked up only when a wall-clock time is shown (reading it loads ICU's
    /// time-zone data, a cost every start would pay otherwise).
    public var timeZone: TimeZone?

    public init(title: String? = nil) {
        self.title = title
    }

    /// The window title: the item's title, then the app name.
    public var windowTitle: String { title.map { "\($0) — Reel" } ?? "Reel" }

    public var showsSpinner: Bool { timeControl.isWaiting }

    /// The banner text for a failed item, naming it.
    public static func errorText(item: String, message: String) -> String {
        "“\(item)” could not be played. \(message)"
    }

    /// The banner while a network item waits for the network to come back.
    public static let noNetworkText = tr("No network: waiting for the connection to come back…")

    /// The banner while a failed network item is tried again.
    public static func resumedText(_ position: Double) -> String { String(format: tr("Resumed at %@"), TimeFormat.clock(position)) }
    public static func reconnectingText(attempt: Int, of total: Int) -> String { String(format: tr("Reconnecting… (try %d of %d)"), attempt, total) }

    /// The banner for an item that played but not as it should have (it ended early, say).
    public static func warningText(item: String, message: String) -> String {
        "“\(item)” ended early. \(message)"
    }
}
