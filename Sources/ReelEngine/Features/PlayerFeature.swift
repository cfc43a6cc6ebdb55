import CGStreamer
import Foundation
import ReelCore

/// A feature of the player that owns its state and reacts to the player's life through hooks,
/// as Clapper's `ClapperFeature` and its features manager: the bus handlers and the progress
/// timer call the hooks of every registered feature (`PlayerFeatures`), in registration order,
/// and name none of them. A new feature is a new file and a line in `PlayerFeatures.standard`.
///
/// Every hook has an empty default; each is given the player as a `FeatureHost` (what a feature
/// may read and ask), so that a feature is tested alone on a stand-in host.
@MainActor
protocol PlayerFeature: AnyObject {
    /// The player is made: the feature reads its settings (`PlayerConfiguration`).
    func configure(_ configuration: PlayerConfiguration)
    /// An item became current: loaded (`switched` false) or started by a gapless switch (true).
    /// Per-item state starts anew here.
    func itemStarted(_ item: PlaybackItem, switched: Bool, host: FeatureHost)
    /// The current item was taken away (`unload`): the player is idle.
    func itemUnloaded(host: FeatureHost)
    /// The item a gapless switch went to started streaming (its STREAM_START), after `itemStarted`.
    func streamStarted(host: FeatureHost)
    /// The loaded item's own stream started (its first STREAM_START: not a gapless switch).
    func ownStreamStarted(host: FeatureHost)
    /// The current item was started again on a fresh pipeline (`restartLoad`); `nextHanded`: the
    /// next item the streaming side had been given, taken back.
    func loadRestarted(nextHanded: PlaybackItem?, host: FeatureHost)
    /// The item has shown no picture within the preroll bound: true when the feature took it
    /// (the item goes on, as a fall back does); the first that takes it ends the round.
    func noPicture(reason: String, host: FeatureHost) -> Bool
    /// A stream collection came (the bus's STREAM_COLLECTION). `nextItem`: the next item's,
    /// come before its gapless switch started (kept for `streamStarted`).
    func streamCollection(_ collection: StreamCollectionRef, nextItem: Bool, host: FeatureHost)
    /// playbin3 says which streams it plays (the bus's STREAMS_SELECTED); `nextItem` as above.
    func streamsSelected(_ ids: [String], nextItem: Bool, host: FeatureHost)
    /// The item prerolled and is about to be said ready (`readyToPlay`): what observers must
    /// find settled when they hear of it (the tracks the preferences choose).
    /// A pipeline was built and furnished (its video filter made): per-pipeline settings go on it.
    func pipelineBuilt(host: FeatureHost)
    func readying(host: FeatureHost)
    /// The item prerolled (its duration, seekability and picture size are known), after it was
    /// said ready.
    func prerolled(host: FeatureHost)
    /// The position jumps: a seek was issued, or the item stopped (back to its start).
    func positionJumped(host: FeatureHost)
    /// A seek landed (its ASYNC_DONE); `user`: one the user asked for (not Reel's own redraw).
    func seekLanded(user: Bool, host: FeatureHost)
    /// A tag list came for the current item (the bus's TAG).
    func tags(_ tags: ItemTags, host: FeatureHost)
    /// A table of contents came (the bus's TOC): its chapters, in any order. `nextItem`: it is
    /// the next item's, come before its gapless switch started (kept for `itemStarted`).
    func tableOfContents(_ chapters: [Chapter], nextItem: Bool, host: FeatureHost)
    /// The sound server asked for a state (the bus's REQUEST_STATE: a cork or an uncork).
    func requestedState(_ state: PipelineTarget, host: FeatureHost)
    /// The bus's ERROR: true when the feature took it (the item goes on, as a fall back does);
    /// the first feature that takes it ends the round.
    func takeError(_ message: UnsafeMutablePointer<GstMessage>, text: String, host: FeatureHost) -> Bool
    /// The user played or paused (`play`, `pause`, `toggle`).
    func userChangedIntent(host: FeatureHost)
    /// The user played an item that was paused mid-way (not at its end, not failed), before the
    /// pipeline is asked to play: where it resumes may be moved (`LiveClock`).
    func resuming(host: FeatureHost)
    /// The progress timer's beat (every `progressInterval`, whatever the state).
    func tick(host: FeatureHost)
    /// A DURATION_CHANGED message came (an adaptive demuxer posts one when its manifest gets a
    /// duration), after the player read the duration again.
    func durationChanged(host: FeatureHost)
    /// The progress timer's beat, after `tick`: true when the feature failed or ended the item
    /// (nothing more is done with this beat); the first that takes it ends the round.
    func timerCheck(host: FeatureHost) -> Bool
    /// The timer read the position of an item playing forward: true when the feature took it
    /// (it ended or failed the item; nothing more is done with this beat).
    func positionRead(_ seconds: Double, host: FeatureHost) -> Bool
    /// The timer's beat while the item is not playing forward (paused, seeking, at its end):
    /// watches of the position start over.
    func progressPaused(host: FeatureHost)
    /// The pipeline looks stalled to the feature (it is then abandoned, never taken to NULL).
    func looksStalled(host: FeatureHost) -> Bool
    /// The item reached its end (EOS, or the handover of a gapless switch), before observers
    /// are told it played to its end.
    func itemEnding(host: FeatureHost)
    /// The player is shutting down.
    func shutdown(host: FeatureHost)
    /// What the feature shows the remote controls and the window: it writes its own fields of the
    /// snapshot (`Player.readout`), so that its state reaches them without an edit elsewhere.
    func readout(into snapshot: inout PlaybackSnapshot, host: FeatureHost)
    /// The properties the feature owns (mpv's names), declared once into the session's table
    /// (`Player.declare(into:)`): what the socket, input.conf, the keys and MPRIS read and set.
    func properties(host: FeatureHost) -> [Property]
    /// The commands the feature owns (mpv's names), registered once with the session's registry.
    func commands(host: FeatureHost) -> [(name: String, run: IPCCommandRegistry.Command)]
}

extension PlayerFeature {
    func configure(_ configuration: PlayerConfiguration) {}
    func takeError(_ message: UnsafeMutablePointer<GstMessage>, text: String, host: FeatureHost) -> Bool { false }
    func itemStarted(_ item: PlaybackItem, switched: Bool, host: FeatureHost) {}
    func itemUnloaded(host: FeatureHost) {}
    func streamStarted(host: FeatureHost) {}
    func ownStreamStarted(host: FeatureHost) {}
    func loadRestarted(nextHanded: PlaybackItem?, host: FeatureHost) {}
    func noPicture(reason: String, host: FeatureHost) -> Bool { false }
    func streamCollection(_ collection: StreamCollectionRef, nextItem: Bool, host: FeatureHost) {}
    func streamsSelected(_ ids: [String], nextItem: Bool, host: FeatureHost) {}
    func readying(host: FeatureHost) {}
    func itemEnding(host: FeatureHost) {}
    func pipelineBuilt(host: FeatureHost) {}
    func prerolled(host: FeatureHost) {}
    func tags(_ tags: ItemTags, host: FeatureHost) {}
    func positionJumped(host: FeatureHost) {}
    func seekLanded(user: Bool, host: FeatureHost) {}
    func tableOfContents(_ chapters: [Chapter], nextItem: Bool, host: FeatureHost) {}
    func requestedState(_ state: PipelineTarget, host: FeatureHost) {}
    func userChangedIntent(host: FeatureHost) {}
    func resuming(host: FeatureHost) {}
    func tick(host: FeatureHost) {}
    func durationChanged(host: FeatureHost) {}
    func timerCheck(host: FeatureHost) -> Bool { false }
    func positionRead(_ seconds: Double, host: FeatureHost) -> Bool { false }
    func progressPaused(host: FeatureHost) {}
    func looksStalled(host: FeatureHost) -> Bool { false }
    func shutdown(host: FeatureHost) {}
    func readout(into snapshot: inout PlaybackSnapshot, host: FeatureHost) {}
    func properties(host: FeatureHost) -> [Property] { [] }
    func commands(host: FeatureHost) -> [(name: String, run: IPCCommandRegistry.Command)] { [] }
}

/// What a feature reads of the player and may ask of it (`Player` conforms; tests use a stand-in).
@MainActor
protocol FeatureHost: PlaybackTransport {
    var intent: PlayIntent { get }
    /// The item prerolled (ASYNC_DONE, or a live source's state change).
    var isPrerolled: Bool { get }
    var duration: Double? { get }
    /// The position in stream time (live items: not on the window's scale).
    var streamPosition: Double { get }
    /// A routed live item's state (the gateway's `LiveStream`, kept by `LiveClock`), nil otherwise.
    var liveStream: LiveStream? { get }
    /// The gateway's `LiveStream` for `item` when it is routed through it, nil otherwise.
    func routedLiveStream(of item: PlaybackItem) -> LiveStream?
    /// The live window of the current item, once it started (`LiveClock`).
    var liveTimeline: LiveTimeline? { get }
    /// Where the pipeline may seek now (nil: not seekable or not known).
    var seekableRange: ClosedRange<Double>? { get }
    /// Seeks to `seconds` of stream time (a live item's, not on its window's scale).
    func seekStream(to seconds: Double)
    /// Draws into a Wayland surface (not an X11 window).
    var isOnWayland: Bool { get }
    /// The pipeline is PAUSED now (not only asked to be).
    var pipelineIsPaused: Bool { get }
    /// A seek is in flight (sent, not yet landed).
    var isSeeking: Bool { get }
    /// Counts loads: a decision taken for one item is void once it differs.
    var loadGeneration: Int { get }
    /// Seconds on the monotonic clock (`Player.monotonicSeconds`).
    var now: Double { get }
    /// The pipeline (playbin3), for features that set its properties.
    var pipelineElement: UnsafeMutablePointer<GstElement> { get }
    /// An element of the video filter by name (a new reference: unref it), nil without one.
    func videoFilterElement(_ name: String) -> UnsafeMutablePointer<GstElement>?
    /// The pipeline's aspect filter, when it has one.
    var aspectFilter: AspectFilter? { get }
    /// The overlay that draws subtitle files, when the pipeline has one.
    var subtitleOverlay: SubtitleOverlay? { get }
    /// The secondary subtitles' overlay (at the top), when the pipeline was built with one.
    var secondarySubtitleOverlay: SubtitleOverlay? { get }
    /// The picture as it enters the aspect filter (turned upright, rotated, zoomed), or the stored size.
    var pictureSize: (width: Int, height: Int)? { get }
    /// The picture as the file's own turn leaves it (before the user's rotation, zoom, pan).
    var orientedPictureSize: (width: Int, height: Int)? { get }

    func emit(_ event: PlayerEvent)
    /// The item fails with `error` (the queue goes on).
    func fail(_ error: PlaybackError)
    /// The item failed already.
    var hasFailed: Bool { get }
    /// The pipeline was asked for PAUSED or PLAYING (not stopped or torn down).
    var wantsPipelineRunning: Bool { get }
    /// The loaded item's own stream has not started yet, or a seek made as a restart waits for
    /// its preroll (`HeldBackNextURI`, `SeekDuringGaplessSwitch`).
    var awaitingOwnStreamStart: Bool { get }
    /// Gives playbin3's about-to-finish the next item (nil: none).
    func handToStreamingSide(next: PlaybackItem?)
    /// When the item's HTTP source last received bytes (nil: none yet, or not over HTTP).
    var httpSourceLastActivity: ContinuousClock.Instant? { get }
    /// The decoders inside the pipeline now (factory names), and whether the video one is hardware.
    var pipelineDecoders: (video: String?, audio: String?, hardware: Bool?) { get }
    /// Asks the features whether one takes an item without a picture (`noPicture`).
    func offerNoPicture(reason: String) -> Bool
    /// Starts the current item again on a fresh pipeline (the stuck one abandoned).
    func restartLoad()
    var rate: Double { get }
    /// Linear volume, 0…1 (playbin3's; `VolumeLimit` holds it to `volume-max`).
    var volume: Double { get set }
    /// The last buffering percentage below 100, nil when not buffering.
    var bufferingPercent: Int? { get }
    /// The item stopped at its end without EOS: it ends here, and the next load gets a fresh pipeline.
    func endStalled()
    /// The item is an adaptive stream (HLS, DASH: an adaptive demuxer plays it).
    var isAdaptive: Bool { get }
    /// The item is DASH (dashdemux2 plays it).
    var isDASH: Bool { get }
    /// A flushing seek where playback stands, no event of its own: the streams set up again.
    func restartStreams()
    /// The item is held for the network (`NetworkRule`).
    var isWaitingForNetwork: Bool { get }
    /// Where the item is, for loading it again (the position once prerolled, else the start asked).
    var reloadPosition: Double? { get }
    /// Loads `item` again (its events say so: `attempt`), starting at `position` when past 0.5 s.
    func reload(_ item: PlaybackItem, at position: Double?)
    /// Reads the media info again and tells observers (a live title changed).
    func sayMediaInfo()
    /// When paused, draws the frame on screen anew (a filter changed).
    func redrawPausedFrame()
}

/// A tag list as features read it: its title, and its picture on demand (copied only when asked).
struct ItemTags {
    var title: String?
    var picture: () -> Data?
}

/// The registered features, called in registration order.
@MainActor
final class PlayerFeatures {
    private(set) var all: [any PlayerFeature]

    init(_ features: [any PlayerFeature]) { all = features }

    /// The registered feature of type `F`.
    func first<F: PlayerFeature>(_ type: F.Type) -> F? {
        for feature in all { if let f = feature as? F { return f } }
        return nil
    }

    /// Asks every feature, in registration order, until one answers true.
    func first(_ hook: String, _ call: (any PlayerFeature) -> Bool) -> Bool {
        for feature in all where call(feature) {
            Log.debug(.engine, .debug, "hook \(hook) taken by \(type(of: feature))")
            return true
        }
        return false
    }

    /// Calls `hook` on every feature, in registration order (logged at trace level).
    func each(_ hook: String, _ call: (any PlayerFeature) -> Void) {
        for feature in all {
            Log.debug(.engine, .trace, "hook \(hook) → \(type(of: feature))")
            call(feature)
        }
    }
}
