import Foundation

/// `--hwdec`: whether Reel puts the hardware video decoders that work on this machine ahead of
/// the software ones (`auto`), or leaves every rank as GStreamer has it (`no`).
public enum HardwareDecodingMode: String, Sendable, CaseIterable, Codable {
    case auto
    case no

    public init?(argument: String) {
        switch argument.lowercased() {
        case "auto", "yes", "on": self = .auto
        case "no", "off", "none": self = .no
        default: return nil
        }
    }
}

/// The rank decision for hardware video decoders. GStreamer 1.22 registers the VA-API decoders
/// (plugins-bad `va`) and NVIDIA's (`nvcodec`) with rank none or below the software decoders,
/// so playbin3 never picks them; Totem and Clapper raise them, as GStreamer 1.24 does by default.
/// Reel raises, in `auto`, only those that exist **and** open their device (a READY probe the
/// engine makes once per run), just above the highest software video decoder, so that
/// decodebin3 tries them first and its software choice stays the same otherwise. A name set by
/// the user in `GST_PLUGIN_FEATURE_RANK` is never touched. `no`, and an item whose hardware
/// decoder failed, get the ranks GStreamer gave.
public enum HardwareDecoderRanking {
    public struct Decoder: Sendable, Equatable {
        public var name: String
        /// The factory's klass ("Codec/Decoder/Video/Hardware").
        public var klass: String
        /// The rank GStreamer gave it (before Reel changed anything).
        public var rank: Int

        public init(name: String, klass: String, rank: Int) { self.name = name; self.klass = klass; self.rank = rank }

        public var isHardware: Bool { Self.isHardware(klass: klass) }

        /// What GStreamer's hardware decoders say of themselves (va, vaapi, nvcodec, v4l2codecs, msdk).
        public static func isHardware(klass: String) -> Bool {
            let parts = Set(klass.split(separator: "/").map(String.init))
            return parts.contains("Decoder") && parts.contains("Video") && parts.contains("Hardware")
        }
    }

    /// GStreamer's `GST_RANK_PRIMARY`.
    public static let primary = 256

    /// The factory names `GST_PLUGIN_FEATURE_RANK` sets ("name:RANK,name2:RANK"; GStreamer's
    /// syntax, where a rank is a number or NONE/MARGINAL/SECONDARY/PRIMARY/MAX).
    public static func userRanked(_ variable: String?) -> Set<String> {
        guard let variable else { return [] }
        var names: Set<String> = []
        for entry in variable.split(separator: ",") {
            let name = entry.split(separator: ":", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            if !name.isEmpty { names.insert(name) }
        }
        return names
    }

    /// The rank every hardware decoder should have for a load in `mode`: in `auto`, one above
    /// the highest software video decoder (at least `primary + 1`) for those that `opens`, and
    /// GStreamer's own for the rest. Names the user ranked are left out (never set).
    public static func ranks(mode: HardwareDecodingMode, decoders: [Decoder], userRanked: Set<String>,
                             opens: (String) -> Bool) -> [String: Int] {
        let software = decoders.filter { !$0.isHardware }.map(\.rank).max() ?? primary
        let raised = max(software, primary) + 1
        var ranks: [String: Int] = [:]
        for decoder in decoders where decoder.isHardware && !userRanked.contains(decoder.name) {
            ranks[decoder.name] = mode == .auto && opens(decoder.name) ? max(raised, decoder.rank) : decoder.rank
        }
        return ranks
    }

    /// The warning a hardware decoder's failure gives (the item goes on in software).
    public static func fallbackWarning(decoder: String, reason: String, uri: String?) -> PlaybackError {
        PlaybackError(kind: .hwdecFallback, message: "The hardware decoder \(decoder) failed (\(reason)); this item goes on with software decoding.",
                      uri: uri)
    }
}
