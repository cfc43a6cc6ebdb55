import Foundation
import ReelCore

/// Live items: positions on the live window's scale, and the recovery of a playback that fell
/// out of the window (what a live item says of itself is `LiveAnnouncements`).
extension Player {
    /// The live window of the current item, once it has started and Reel has read its playlist
    /// (nil for VOD, a catchup programme, or a live item not routed through the gateway).
    var liveTimeline: LiveTimeline? {
        guard let live = itemState.live.stream, prerolled, mediaInfo.isLive, let snapshot = live.snapshot, !snapshot.hasEndList,
              let range = seekableRange else { return nil }
        return LiveTimeline(snapshot: snapshot, windowStartStreamTime: snapshot.firstSegmentStreamTime ?? range.lowerBound, now: Date(), slides: live.slides)
    }

    /// Where a live item is in its window: position, window, distance from the edge, wall-clock time.
    public var livePosition: LivePosition? { liveTimeline?.report(stream: streamPosition) }

    /// The live part of the snapshot: the place in the window, the mode and programme.
    func readLive(into snapshot: inout PlaybackSnapshot) {
        snapshot.behindLiveEdge = behindLiveEdge
        if let live = livePosition {
            snapshot.live = live
            snapshot.liveWindow = live.window
            snapshot.epochTime = live.epochTime
        }
        snapshot.liveMode = liveMode
        snapshot.program = liveProgram
    }

    /// The programme asked for the current item (`--live-mode` …), nil without one.
    public var liveProgram: LiveProgram? { itemState.live.stream?.program }

    /// The live mode in force for the current item: nil for an item that is not live and has no
    /// programme; catchup once its playlist is closed.
    public var liveMode: LiveMode? {
        guard let live = itemState.live.stream else { return nil }
        if let program = live.programInForce ?? live.program {
            if live.snapshot?.hasEndList == true { return .catchup }
            return program.effectiveMode(at: Date())
        }
        return liveTimeline != nil ? .live : nil
    }

    /// Whether "go live" means something: a live window to jump in, or a catchup programme (where
    /// it is a no-op).
    public var canGoLive: Bool { liveMode == .catchup || liveTimeline != nil || (mediaInfo.isLive && seekableRange != nil) }

    /// A position in stream time as users see it.
    func reported(_ stream: Double) -> Double { liveTimeline.map { $0.position(stream: stream) } ?? stream }

    /// Play after a pause longer than the window: the position is gone from the stream, so
    /// playback resumes at the window's start (one target duration in,
    /// as the first segment is the next to leave), with a warning (Media3's behind-live-window
    /// recovery) instead of failing.
    func recoverIfBehindLiveWindow() {
        guard let timeline = liveTimeline else { return }
        // The window has moved on since the playlist was read if the engine stopped refreshing it.
        let stale = timeline.slides ? max(0, Date().timeIntervalSince(timeline.snapshot.receivedAt) - timeline.snapshot.targetDuration) : 0
        let position = timeline.position(stream: streamPosition) - stale
        guard position < -0.25 else { return }
        emit(.warning(PlaybackError(kind: .behindLiveWindow,
                                    message: String(format: "Playback fell %.1f s behind the live window (paused longer than it): resumed at the window's start.", -position),
                                    uri: currentURI)))
        // One target duration in: the window's first segment is the next to leave it.
        let target = stale + min(timeline.snapshot.targetDuration, timeline.liveTarget)
        performSeek(to: timeline.stream(position: target), rate: rate, mode: .keyframe, user: true)
    }
}
