import Foundation
import ReelCore

/// The live clock: a routed live item's positions on its live window's scale (`LiveTimeline`),
/// from the gateway's `LiveStream` (the playlist Reel reads as it serves it), what the snapshot
/// says of the window and the mode, and the recovery of a playback that fell out of the window
/// while paused. It owns the item's `LiveStream`; seeking, progress and the position read the
/// timeline it makes (`Player.liveTimeline`). What a live item says of itself is
/// `LiveAnnouncements`.
@MainActor
final class LiveClock: PlayerFeature {
    /// The gateway's `LiveStream` of the current item when it is routed, nil otherwise.
    private(set) var stream: LiveStream?
    /// The wall clock (tests set it).
    var wallClock: () -> Date = Date.init
    /// `--clock-at` (`PlayerConfiguration.clockAt`).
    private var clockAt: Date?
    /// Under `--clock-at`, the item's PROGRAM-DATE-TIME rebased: the first date read becomes
    /// `clockAt` (nil until a date was read).
    private var epochShift: Double?

    func configure(_ configuration: PlayerConfiguration) { clockAt = configuration.clockAt }

    func itemStarted(_ item: PlaybackItem, switched: Bool, host: FeatureHost) {
        stream = host.routedLiveStream(of: item)
        epochShift = nil
    }

    func itemUnloaded(host: FeatureHost) { stream = nil }

    /// The live window of the current item, once it has started and Reel has read its playlist
    /// (nil for VOD, a catchup programme, or a live item not routed through the gateway).
    func timeline(host: FeatureHost) -> LiveTimeline? {
        guard let live = stream, host.isPrerolled, host.mediaInfo.isLive, let snapshot = live.snapshot, !snapshot.hasEndList,
              let range = host.seekableRange else { return nil }
        // Under --clock-at the window does not move by the wall clock between refreshes: positions
        // and the badge are the media's, the same at the same media position on every run.
        var timeline = LiveTimeline(snapshot: snapshot, windowStartStreamTime: snapshot.firstSegmentStreamTime ?? range.lowerBound,
                                    now: clockAt == nil ? wallClock() : snapshot.receivedAt, slides: live.slides)
        if clockAt == nil, live.slides, host.pipelineIsPaused {
            timeline.heldSlide = max(0, wallClock().timeIntervalSince(snapshot.receivedAt) - max(0, snapshot.targetDuration))
        }
        if let clockAt {
            if epochShift == nil, let first = timeline.epochTime(stream: host.streamPosition) {
                epochShift = clockAt.timeIntervalSince1970 - first
            }
            timeline.epochShift = epochShift ?? 0
        }
        return timeline
    }

    /// How far playback is behind the live edge: the end of the newest segment when Reel reads
    /// the playlists, else the end of the seekable window (a live item not routed).
    func behindLiveEdge(host: FeatureHost) -> Double? {
        if let timeline = timeline(host: host) { return timeline.behindLiveEdge(stream: host.streamPosition) }
        guard host.mediaInfo.isLive, let range = host.seekableRange else { return nil }
        return max(0, range.upperBound - host.streamPosition)
    }

    /// The live mode in force: nil for an item that is not live and has no programme; catchup
    /// once its playlist is closed.
    func mode(host: FeatureHost) -> LiveMode? {
        guard let live = stream else { return nil }
        if let program = live.programInForce ?? live.program {
            if live.snapshot?.hasEndList == true { return .catchup }
            return program.effectiveMode(at: wallClock())
        }
        return timeline(host: host) != nil ? .live : nil
    }

    /// Play after a pause longer than the window: the position is gone from the stream, so
    /// playback resumes at the window's start (one target duration in, as the first segment is
    /// the next to leave), with a warning (Media3's behind-live-window recovery) instead of failing.
    func resuming(host: FeatureHost) {
        // The pipeline is still paused: the timeline counts how far the window moved on since the
        // playlist was read if the engine stopped refreshing it (`LiveTimeline.heldSlide`).
        guard let timeline = timeline(host: host) else { return }
        let position = timeline.position(stream: host.streamPosition)
        guard position < -0.25 else { return }
        Log.debug(.engine, .info, String(format: "live: %.1f s behind the window after a pause: resumed at its start", -position))
        host.emit(.warning(PlaybackError(kind: .behindLiveWindow,
                                         message: String(format: "Playback fell %.1f s behind the live window (paused longer than it): resumed at the window's start.", -position),
                                         uri: host.currentURI)))
        let target = min(timeline.snapshot.targetDuration, timeline.liveTarget)
        host.seekStream(to: timeline.stream(position: target))
    }

    /// The place in the window, the mode and the programme.
    func readout(into snapshot: inout PlaybackSnapshot, host: FeatureHost) {
        snapshot.behindLiveEdge = behindLiveEdge(host: host)
        if let live = timeline(host: host)?.report(stream: host.streamPosition) {
            snapshot.live = live
            snapshot.liveWindow = live.window
            snapshot.epochTime = live.epochTime
        }
        snapshot.liveMode = mode(host: host)
        snapshot.program = stream?.program
    }
}

extension Player {
    private var liveClock: LiveClock? { features.first(LiveClock.self) }

    /// The live window of the current item (`LiveClock`).
    var liveTimeline: LiveTimeline? { liveClock?.timeline(host: self) }

    /// Where a live item is in its window: position, window, distance from the edge, wall-clock time.
    public var livePosition: LivePosition? { liveTimeline?.report(stream: streamPosition) }

    /// How far playback is behind the live edge, for live items (`LiveClock.behindLiveEdge`).
    public var behindLiveEdge: Double? { liveClock?.behindLiveEdge(host: self) }

    /// The programme asked for the current item (`--live-mode` …), nil without one.
    public var liveProgram: LiveProgram? { liveClock?.stream?.program }

    /// The live mode in force for the current item (`LiveClock.mode`).
    public var liveMode: LiveMode? { liveClock?.mode(host: self) }

    /// Whether "go live" means something: a live window to jump in, or a catchup programme (where
    /// it is a no-op).
    public var canGoLive: Bool { liveMode == .catchup || liveTimeline != nil || (mediaInfo.isLive && seekableRange != nil) }

    /// A position in stream time as users see it.
    func reported(_ stream: Double) -> Double { liveTimeline.map { $0.position(stream: stream) } ?? stream }
}
