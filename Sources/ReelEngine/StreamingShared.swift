import ReelCore
import Synchronization

/// State that GStreamer's streaming threads read (`about-to-finish`, `source-setup`). Only this
/// Mutex-guarded state is touched off the main thread.
final class StreamingShared: Sendable {
    struct State {
        /// The item to switch to gaplessly at about-to-finish (playbin3 gets its `playedURI`). The
        /// item itself travels with the URI, so the switch that starts is known by its identity,
        /// whatever `prepareNext` said since.
        var next: PlaybackItem?
        /// Set when about-to-finish handed `next` to playbin3; cleared at its STREAM_START.
        var switched: PlaybackItem?
        /// Playing backwards (a negative rate): about-to-finish then comes at the *start* (the
        /// demuxer's reverse EOS; while paused too) and hands nothing over. Handed over, playbin3
        /// 1.22 switched to the next item at the next flushing seek, with the current one
        /// reported cut short (paused at 2 s, rate −64 then 1: "stops at 3.13 s of its 10.02 s").
        var reverse = false
        /// Headers for the current item's HTTP source (first request only; see ARCHITECTURE.md).
        var headers: [(String, String)] = []
        var userAgent = "Reel/0.1"
        /// What the content guard refuses of a source that is not a gateway's (`ContentGuard`).
        var unroutedManifests: ContentGuard.Manifests = .allowed
        /// Seconds a blocking HTTP read may stall before the source fails (souphttpsrc `timeout`).
        var networkTimeout: UInt32 = 15
        /// The item's HTTP source (pointer identity only, never dereferenced) and when it last
        /// produced data (or started): a failure after `networkTimeout` of silence is a timeout,
        /// which souphttpsrc itself reports only as a generic flow error.
        var httpSource: UInt?
        var httpSourceActivity: ContinuousClock.Instant?
        /// The cap on adaptive streams' bitrate (bits/s; nil: none), given to every adaptive
        /// demuxer as it is set up (`Player.bitrateCap`).
        var bitrateCap: Int?
        /// The floor of that window (a pinned rendition: floor = cap = its BANDWIDTH).
        var bitrateFloor: Int?
        /// The most the adaptive demuxer buffers ahead (seconds; nil: its own target).
        var bufferingLimit: Double?
        /// The current item's adaptive demuxer (hlsdemux2, dashdemux2): a reference held here
        /// (released when replaced or forgotten), so the cap can change while it plays.
        var adaptiveDemuxer: UInt?
    }
    let state = Mutex(State())
}
