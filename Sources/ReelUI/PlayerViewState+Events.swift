import Foundation
import ReelCore

/// The window's view state as a pure reducer: an event of the queue (with the item it is about)
/// and the state of playback when it came — the same `PlaybackSnapshot` the control socket reads —
/// give the next state. No player or queue is read here, so every row of `ViewStateReducerTests`
/// is one situation the window meets; what the window does besides (recent files, the
/// screensaver, quitting) is the session's.
public struct ViewStateContext: Sendable {
    /// What the banner says for good when no sink can draw in the window (nil: one can).
    public var noVideoOutput: String?
    /// How many times a failed network item is tried (the "try 2 of 6" banner).
    public var maxRetries: Int

    public init(noVideoOutput: String? = nil, maxRetries: Int = RetryPolicy.defaultRetries) {
        self.noVideoOutput = noVideoOutput
        self.maxRetries = maxRetries
    }
}

extension PlayerViewState {
    /// The cover art the video area shows: the item's picture when it has no video stream (an
    /// audio file); a video's own picture wins.
    static func picture(_ now: PlaybackSnapshot) -> Data? {
        now.tracks.contains { $0.kind == .video } || now.mediaInfo.width != nil ? nil : now.coverArt
    }

    /// The state after `event` (about queue item `item`), with playback as `now` says.
    public mutating func apply(_ event: PlayerEvent, item: Int?, now: PlaybackSnapshot, context: ViewStateContext) {
        switch event {
        case .itemChanged(_, _, let title):
            itemTitle = title
            nowPlaying = nil
            pinnedHeight = nil
            self.title = title
            resumedAt = nil
            qualityEntries = []  // the next item's renditions are not known yet
            tracks = []
            position = 0
            duration = nil
            live = nil
            rate = 1
            isSeekable = true
            coverArt = nil
            chapters = []
        case .duration(let d):
            duration = d
        case .progress(let p, let d, _, let liveNow):
            position = p
            live = liveNow
            if let d { duration = d }
            // The resume notice goes once the item has played on a while from there.
            if let resumed = resumedAt, abs(p - resumed) > Self.resumeNoticeSeconds { resumedAt = nil }
        case .resumed(let p):
            resumedAt = p
        case .seeked(let p):
            position = p
            live = now.live
        case .timeControl(let status):
            // A banner stays until playback starts again (the next item, or a replay); the one
            // saying that no sink can draw stays for good.
            if status == .playing, timeControl != .playing, now.status == .readyToPlay {
                errorBanner = context.noVideoOutput
                offersPlayAnyway = false
            }
            if status == .waitingToPlayAtSpecifiedRate(.noNetwork) {
                errorBanner = Self.noNetworkText
                offersPlayAnyway = false
            }
            timeControl = status
            position = now.position
            live = now.live
            coverArt = Self.picture(now)
        case .rate(let r):
            rate = r
        case .volume(let v, let muted):
            volume = v
            isMuted = muted
        case .mediaInfo(let info):
            isSeekable = info.isSeekable || !info.isLive
            coverArt = Self.picture(now)
            nowPlaying = info.isLive ? info.title.flatMap { $0.isEmpty || $0 == itemTitle ? nil : $0 } : nil
            self.title = composedTitle
        case .tracks(let found, _, let shown):
            tracks = found
            audioTrack = now.audioTrack
            subtitleTrack = now.subtitleTrack
            subtitlesShown = shown
            secondarySubtitleTrack = now.secondarySubtitleTrack
        case .error(let problem), .warning(let problem):
            // The queue goes on; the banner keeps saying what went wrong until playback starts again.
            let isWarning = if case .warning = event { true } else { false }
            let name = itemName(item, now: now)
            errorBanner = isWarning ? Self.warningText(item: name, message: problem.message) : Self.errorText(item: name, message: problem.message)
            offersPlayAnyway = problem.kind == .preventedByPolicy
        case .rendition(let index, let height, _, let mode, _):
            pinnedHeight = height
            self.title = composedTitle
            qualityEntries = QualityEntry.entries(for: now.renditions)
            qualityChoice = mode == "manual" ? index.map(String.init) ?? "auto" : "auto"
            qualityLabel = QualityEntry.buttonLabel(manual: mode == "manual", height: height)
        case .chapters(let found):
            chapters = found
        case .retrying(let attempt, _, _):
            errorBanner = Self.reconnectingText(attempt: attempt, of: context.maxRetries)
            offersPlayAnyway = false
        default:
            break
        }
        // A live item paused (`--pause`: its first frame) has no progress ticks: its window, as
        // the snapshot has it once the playlist is read, comes with whatever event comes next.
        // (Only while paused: a seek's or the buffer's wait keeps the ticks' road.)
        if timeControl == .paused, let known = now.live, known != live {
            live = known
            position = known.position
        }
        // What the user asked for and the settings the socket may have changed.
        wantsToPlay = now.wantsToPlay
        meteredPolicy = now.meteredPolicy
        hardwareDecoding = now.hardwareDecoding
    }

    /// The window's title: "Name · 720p" while a rendition is pinned (the seed's
    /// namePlusResolution), and a live stream's now playing first: "Artist - Song — Radio".
    var composedTitle: String? {
        let name = [nowPlaying, itemTitle].compactMap { $0 }.joined(separator: " — ")
        guard !name.isEmpty || pinnedHeight != nil else { return itemTitle }
        return [name.isEmpty ? nil : name, pinnedHeight.map { "\($0)p" }].compactMap { $0 }.joined(separator: " · ")
    }

    /// The item an error or warning names: its queue title, else the one shown.
    public func itemName(_ item: Int?, now: PlaybackSnapshot) -> String {
        if let item, now.items.indices.contains(item), let title = now.items[item].title { return title }
        return title ?? "?"
    }

    /// Seconds played on from a resumed position after which the resume notice goes.
    public static let resumeNoticeSeconds = 8.0
}
