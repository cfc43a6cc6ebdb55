import Foundation
import ReelCore

/// Everything the player knows about the current item, in one value: made new in one place when
/// an item is loaded (`Player.resetItemState`) and handed over in one place when a gapless switch
/// starts the next one (`ItemState(switchedTo:)` at its STREAM_START). What outlives an item
/// (the pipeline, the intent, the rate, volume) is the player's own.
///
/// Each part is its own value (`ItemProgress`, `ItemMedia`); what features and workarounds keep
/// for one item is theirs (`Features/`, `Workarounds/`). Features keep their own per-item
/// state and start it anew at their `itemStarted` hook (the tracks: `Tracks`).
struct ItemState {
    var status: ItemStatus = .unknown
    /// Played to its end (or stopped there by the end-stall watchdog).
    var isAtEnd = false
    /// Prerolled: ASYNC_DONE (or the state change of a live source) was seen.
    var prerolled = false
    var progress = ItemProgress()
    var media = ItemMedia()

    init(direction: Double = 1) {
        progress.ticker.reset(direction: direction)
    }

    /// The state of the item a gapless switch has just started: prerolled as the pipeline is
    /// (it streams already), with the stream collection that came for it before its
    /// STREAM_START, if any. The caller reports it ready once observers know it is current.
    init(switchedFrom previous: ItemState) {
        prerolled = previous.prerolled
        media.videoFramerate = previous.media.videoFramerate
        progress.ticker = previous.progress.ticker
        progress.ticker.reset()
        progress.upstreamDrops = previous.progress.upstreamDrops.handedOver()
        media.collection = previous.media.nextCollection?.info ?? MediaInfo()
        media.videoDisplaySize = previous.media.nextCollection?.displaySize
    }
}

/// Where the item is: its position, a seek in flight, buffering, the ticks and frames counted.
struct ItemProgress {
    /// Where a seek in flight goes; `position` answers it until the seek lands.
    var seekTarget: Double?
    /// A position to seek to as soon as the item has prerolled.
    var startPosition: Double?
    /// The last buffering percentage below 100, nil when not buffering.
    var bufferingPercent: Int?
    /// The last position believed (the end stays where playback got to).
    var lastPosition: Double = 0
    var ticker = ProgressTicker()
    /// The item's frames at the video sink (`Player.videoFrameCounts`): basesink's totals restart
    /// at every segment and flush (a seek), so they are folded in as they are seen.
    var videoFrames = FrameTally()
    /// Frames the decoders skipped as late (their QOS messages), which the sink never saw.
    var upstreamDrops = UpstreamFrameDrops()
}

/// What the item is: its length, codecs, sizes and title.
struct ItemMedia {
    var duration: Double?
    var mediaInfo = MediaInfo()
    var videoFramerate: Double?
    /// Codecs, sizes and the title from the item's stream collection and tags.
    var collection = MediaInfo()
    /// The item's picture size in square pixels, from its stream collection: frame captures are
    /// encoded at it (the sink's frame may be scaled to the window).
    var videoDisplaySize: (Int, Int)?
    /// The next item's stream collection, when it came before that item's STREAM_START.
    var nextCollection: (info: MediaInfo, displaySize: (Int, Int)?)?
}
