import CGStreamer
import Foundation
import ReelCore
@testable import ReelEngine

/// `feature` configured as a player made with `PlayerConfiguration()` changed by `change` would
/// configure it.
@MainActor
func configured<F: PlayerFeature>(_ feature: F, _ change: (inout PlayerConfiguration) -> Void) -> F {
    var configuration = PlayerConfiguration()
    change(&configuration)
    feature.configure(configuration)
    return feature
}

/// A stand-in player for testing one `PlayerFeature` alone: what the feature reads is set by the
/// test, and what it asks for (events, play, pause, seeks, redraws) is recorded.
@MainActor
final class FeatureHostStandIn: FeatureHost {
    var currentItem: PlaybackItem? = PlaybackItem(uri: "file:///clip.mkv")
    var currentURI: String? { currentItem?.playedURI }
    var intent: PlayIntent = .paused
    var isPrerolled = false
    var mediaInfo = MediaInfo()
    var duration: Double?
    var position: Double = 0
    var streamPosition: Double { position }
    var liveStream: LiveStream?
    var liveTimeline: LiveTimeline?
    /// What the gateway has for each item's id (`routedLiveStream(of:)`).
    var routedLiveStreams: [PlaybackItem.ID: LiveStream] = [:]
    func routedLiveStream(of item: PlaybackItem) -> LiveStream? { routedLiveStreams[item.id] }
    var seekableRange: ClosedRange<Double>?
    func seekStream(to seconds: Double) { calls.append(String(format: "seek-stream %.2f", seconds)); position = seconds }
    var now: Double = 100
    var aspectFilter: AspectFilter?
    /// A real playbin3 (not playing) whose properties features set; a real video filter.
    lazy var pipelineElement: UnsafeMutablePointer<GstElement> = {
        GStreamerRuntime.ensureInitialised()
        return gst_element_factory_make("playbin3", nil)!
    }()
    var videoFilter: VideoFilter?
    var subtitleOverlay: SubtitleOverlay? { videoFilter?.subtitles }
    var secondarySubtitleOverlay: SubtitleOverlay? { videoFilter?.secondarySubtitles }
    func videoFilterElement(_ name: String) -> UnsafeMutablePointer<GstElement>? {
        videoFilter.flatMap { reel_bin_get_by_name($0.bin, name) }
    }
    var pictureSize: (width: Int, height: Int)?
    var orientedPictureSize: (width: Int, height: Int)?

    private(set) var events: [PlayerEvent] = []
    private(set) var calls: [String] = []
    /// Called back by `play`/`pause`, as the player calls its features' `userChangedIntent`.
    var onUserIntent: (() -> Void)?

    func emit(_ event: PlayerEvent) { events.append(event) }
    private(set) var failure: PlaybackError?
    func fail(_ error: PlaybackError) { calls.append("fail"); failure = error }
    var hasFailed: Bool { failure != nil }
    var wantsPipelineRunning = true
    var awaitingOwnStreamStart = false
    /// What the streaming side was last given as the next item (`.some(nil)`: told none).
    private(set) var handedNext: PlaybackItem??
    func handToStreamingSide(next: PlaybackItem?) { handedNext = .some(next) }
    var httpSourceLastActivity: ContinuousClock.Instant?
    var pipelineDecoders: (video: String?, audio: String?, hardware: Bool?) = (nil, nil, nil)
    /// What `offerNoPicture` answers (the other features' say, in a real player).
    var noPictureTaken = false
    func offerNoPicture(reason: String) -> Bool { calls.append("no-picture"); return noPictureTaken }
    func restartLoad() { calls.append("restart") }
    var rate = 1.0
    var volume = 1.0
    var bufferingPercent: Int?
    func endStalled() { calls.append("end-stalled") }
    var isAdaptive = false
    var isDASH = false
    func restartStreams() { calls.append("restart-streams") }
    var isWaitingForNetwork = false
    func play() { calls.append("play"); intent = .playing; onUserIntent?() }
    func pause() { calls.append("pause"); intent = .paused; onUserIntent?() }
    func seek(to time: Double, mode: SeekMode) { calls.append("seek \(time) \(mode)"); position = time }
    func sayMediaInfo() { calls.append("media-info \(mediaInfo.title ?? "-")"); events.append(.mediaInfo(mediaInfo)) }
    func redrawPausedFrame() { calls.append("redraw") }
    var reloadPosition: Double? = nil
    var isOnWayland = false
    var pipelineIsPaused = true
    var isSeeking = false
    var loadGeneration = 1
    func reload(_ item: PlaybackItem, at position: Double?) { calls.append("reload \(item.attempt) at \(position.map { String($0) } ?? "-")") }

    func clear() { events = []; calls = [] }
}
