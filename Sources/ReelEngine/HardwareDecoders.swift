import CGStreamer
import Foundation
import ReelCore
import Synchronization

/// Hardware video decoding for a player (`--hwdec`): before each load the registry's hardware
/// video decoders get the ranks `HardwareDecoderRanking` decides (in `auto`, the ones that open
/// their device go ahead of the software decoders; with `no`, and for an item whose hardware
/// decoder failed, GStreamer's own ranks). Reel builds a fresh playbin3 per load
/// (Workarounds/FreshPipelinePerLoad.swift), and decodebin3 sorts the registry's decoders when
/// it is made, so a rank set before a load is the one that item's decoders are chosen by.
/// Ranks are the process's (the registry is): every player sets them before it loads.
@MainActor
final class HardwareDecoders {
    /// Applied from the next load.
    var mode: HardwareDecodingMode
    /// The item whose hardware decoder failed: it plays on the software decoders from then on.
    private(set) var softwareOnly: PlaybackItem.ID?

    init(mode: HardwareDecodingMode) { self.mode = mode }

    /// Sets the ranks for the load of `item`.
    func prepareLoad(of item: PlaybackItem) {
        if softwareOnly != item.id { softwareOnly = nil }
        Registry.apply(softwareOnly == nil ? mode : .no)
    }

    /// Whether `item` may still fall back (once: a second failure is the item's).
    func mayFallBack(_ item: PlaybackItem) -> Bool { softwareOnly != item.id }

    func fellBack(_ item: PlaybackItem) { softwareOnly = item.id }

    /// The decoders inside `pipeline` now (factory names), and whether the video one is hardware.
    static func decoders(in pipeline: UnsafeMutablePointer<GstElement>) -> (video: String?, audio: String?, hardware: Bool?) {
        var video: UnsafeMutablePointer<gchar>?, audio: UnsafeMutablePointer<gchar>?
        var hardware: gboolean = 0
        reel_bin_decoders(pipeline, &video, &audio, &hardware)
        defer { g_free(video); g_free(audio) }
        let v = video.map { String(cString: $0) }
        return (v, audio.map { String(cString: $0) }, v == nil ? nil : hardware != 0)
    }

    /// The hardware decoder that posted `message`, if one did.
    static func hardwareDecoder(posting message: UnsafeMutablePointer<GstMessage>) -> String? {
        reel_message_src_hardware_decoder(message).map { String(cString: $0) }
    }

    /// The registry side, once per process: every video decoder's rank as GStreamer gave it
    /// (read the first time Reel sees it), and which hardware ones opened their device (a READY
    /// probe, made once per factory for the run).
    enum Registry {
        private struct State {
            var original: [String: Int] = [:]
            var opens: [String: Bool] = [:]
        }
        private static let state = Mutex(State())
        /// `GST_PLUGIN_FEATURE_RANK`'s names: the user's ranks win.
        private static let userRanked = HardwareDecoderRanking.userRanked(ProcessInfo.processInfo.environment["GST_PLUGIN_FEATURE_RANK"])

        /// The registry's video decoders, with the ranks GStreamer gave them.
        static func videoDecoders() -> [HardwareDecoderRanking.Decoder] {
            var klasses: UnsafeMutablePointer<UnsafeMutablePointer<gchar>?>?
            guard let names = reel_video_decoder_factories(&klasses) else { return [] }
            defer { g_strfreev(names); g_strfreev(klasses) }
            var found: [(String, String)] = []
            var i = 0
            while let name = names[i], let klass = klasses?[i] {
                found.append((String(cString: name), String(cString: klass)))
                i += 1
            }
            return state.withLock { s in
                found.map { name, klass in
                    let rank = s.original[name] ?? Int(reel_factory_rank(name))
                    s.original[name] = rank
                    return HardwareDecoderRanking.Decoder(name: name, klass: klass, rank: rank)
                }
            }
        }

        /// Sets every hardware video decoder's rank for `mode`.
        static func apply(_ mode: HardwareDecodingMode) {
            let decoders = videoDecoders()
            guard decoders.contains(where: \.isHardware) else { return }
            let ranks = HardwareDecoderRanking.ranks(mode: mode, decoders: decoders, userRanked: userRanked, opens: opens)
            for (name, rank) in ranks where Int(reel_factory_rank(name)) != rank {
                Log.debug(.decoding, .info, "\(mode.rawValue): \(name) rank \(reel_factory_rank(name)) → \(rank)")
                reel_set_factory_rank(name, guint(rank))
            }
        }

        private static func opens(_ name: String) -> Bool {
            if let known = state.withLock({ $0.opens[name] }) { return known }
            let opens = reel_factory_opens(name) != 0
            state.withLock { $0.opens[name] = opens }
            return opens
        }

        /// Forgets what the probes found (tests: a stand-in decoder's device comes and goes).
        static func forgetProbes() { state.withLock { $0.opens = [:] } }
    }
}
