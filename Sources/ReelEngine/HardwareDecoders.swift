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
///
/// A player feature (`PlayerFeature`): it sets the ranks as each item is loaded, and takes a
/// hardware decoder's error (the fall back to software, below).
@MainActor
final class HardwareDecoders: PlayerFeature {
    /// Applied from the next load.
    var mode: HardwareDecodingMode
    /// The item whose hardware decoder failed: it plays on the software decoders from then on.
    private(set) var softwareOnly: PlaybackItem.ID?

    init(mode: HardwareDecodingMode = .auto) { self.mode = mode }

    func readout(into snapshot: inout PlaybackSnapshot, host: FeatureHost) { snapshot.hardwareDecoding = mode }
    func configure(_ configuration: PlayerConfiguration) { mode = configuration.preferences.hardwareDecoding }

    func properties(host: FeatureHost) -> [Property] {
        [.choice("hwdec", ["auto", "no"], "Hardware video decoding, from the next item on.", synonyms: ["yes": "auto", "on": "auto", "off": "no", "none": "no"],
                 get: { $0.hardwareDecoding.rawValue }) { self.mode = HardwareDecodingMode(argument: $0) ?? .auto }]
    }

    func itemStarted(_ item: PlaybackItem, switched: Bool, host: FeatureHost) {
        if !switched { prepareLoad(of: item) }
    }

    func takeError(_ message: UnsafeMutablePointer<GstMessage>, text: String, host: FeatureHost) -> Bool {
        guard let decoder = Self.hardwareDecoder(posting: message) else { return false }
        return fallBack(decoder: decoder, reason: text, host: host)
    }

    /// No picture within the preroll bound while a hardware decoder decodes the video: it falls back.
    func noPicture(reason: String, host: FeatureHost) -> Bool {
        let decoders = host.pipelineDecoders
        guard decoders.hardware == true, let decoder = decoders.video else { return false }
        return fallBack(decoder: decoder, reason: reason, host: host)
    }

    /// A hardware decoder failed (an error it posted, or no picture within the preroll bound):
    /// the same item is loaded again with GStreamer's own ranks (software decoders), where it had
    /// got to, with a `hwdec-fallback` warning; never an item error. Once per item: false when
    /// the item already fell back (its error is then the item's).
    func fallBack(decoder: String, reason: String, host: FeatureHost) -> Bool {
        guard let item = host.currentItem, mayFallBack(item) else { return false }
        let at = host.reloadPosition
        fellBack(item)
        Log.debug(.decoding, .warning, "\(decoder) failed (\(reason)): \(item.uri) again at \(at ?? 0) s in software")
        host.emit(.warning(HardwareDecoderRanking.fallbackWarning(decoder: decoder, reason: reason, uri: item.uri)))
        host.reload(item, at: at)
        return true
    }

    /// Sets the ranks for the load of `item`.
    func prepareLoad(of item: PlaybackItem) {
        if softwareOnly != item.id { softwareOnly = nil }
        Registry.apply(softwareOnly == nil ? mode : .no)
    }

    /// Whether `item` may still fall back (once: a second failure is the item's).
    func mayFallBack(_ item: PlaybackItem) -> Bool { softwareOnly != item.id }

    func fellBack(_ item: PlaybackItem) { softwareOnly = item.id }

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

extension Player {
    /// `--hwdec`: applied from the next load.
    public var hardwareDecoding: HardwareDecodingMode {
        get { features.first(HardwareDecoders.self)?.mode ?? .auto }
        set { features.first(HardwareDecoders.self)?.mode = newValue }
    }

    /// Tests only: the READY probes are made again (a stand-in decoder's device comes and goes).
    @_spi(Testing) public nonisolated static func forgetHardwareDecoderProbes() { HardwareDecoders.Registry.forgetProbes() }
}
