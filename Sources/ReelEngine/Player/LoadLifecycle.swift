import CGStreamer
import ReelCore

/// Where the player's pipeline is in its life across loads: the flags `load`, the bus handlers and
/// the watchdogs share, in one value the player owns (issue 29: they were eight fields of
/// `Player`'s own).
struct LoadLifecycle {
    /// Counts loads: a callback for an older load sees another number and does nothing.
    var generation = 0
    /// True inside `load` while it reports the new item: an observer may seek then (a start
    /// position: resume), and the pipeline is started once, by `load`, when the URI is set.
    var inProgress = false
    /// True from a load until that item's own STREAM_START: a STREAM_START before it is not a
    /// gapless switch, even when about-to-finish already took the next URI (a short or fully
    /// downloaded item reaches about-to-finish before its own stream has started at the sinks).
    var awaitingOwnStreamStart = false
    /// The pipeline stopped at an item's end without EOS once: the next load (or a replay) is
    /// given a fresh one rather than this one.
    var stalled = false
    /// The pipeline was given a URI: the next load builds a fresh one (see `load`).
    var hasHadItem = false
    /// Tests only: asked for each pipeline built after the first, a video sink description to
    /// use instead of the configuration's (nil: the configuration's), e.g. one that never prerolls.
    var videoSinkForNextPipeline: (() -> String?)?
}

/// The GLib main-loop sources the player has armed, by what they are for (0: none): all of them
/// are removed at shutdown.
struct PlayerTimers {
    /// The progress timer (`Player+Progress`).
    var progress: UInt32 = 0

    mutating func remove(_ timer: WritableKeyPath<PlayerTimers, UInt32>) {
        if self[keyPath: timer] != 0 { g_source_remove(self[keyPath: timer]) }
        self[keyPath: timer] = 0
    }
}
