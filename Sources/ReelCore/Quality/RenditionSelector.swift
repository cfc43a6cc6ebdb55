import Foundation

/// Turns a `QualityChoice` and the metered cap into the bitrate window an adaptive demuxer is
/// given (hlsdemux2's `min-bitrate` / `max-bitrate`: a pinned rendition is a window that holds
/// only its BANDWIDTH). Pure; table-tested.
public enum RenditionSelector {
    /// The window, and the rendition it pins (nil in auto).
    public struct Limits: Sendable, Equatable {
        public var minBitrate: Int?
        public var maxBitrate: Int?
        /// The index of the pinned rendition in `renditions`, nil when hlsdemux2 chooses.
        public var pinned: Int?

        public init(minBitrate: Int? = nil, maxBitrate: Int? = nil, pinned: Int? = nil) {
            self.minBitrate = minBitrate
            self.maxBitrate = maxBitrate
            self.pinned = pinned
        }
    }

    /// The variants a user chooses among: I-frame variants excluded, in the master's order.
    public static func renditions(of master: HLSMasterPlaylist) -> [HLSVariant] { master.variants.filter { !$0.isIFrameOnly } }

    /// - Parameters:
    ///   - cap: the metered policy's cap (bit/s), which a manual choice above it gives way to.
    public static func limits(_ choice: QualityChoice, renditions: [HLSVariant], cap: Int?) -> Limits {
        let known = renditions.enumerated().filter { $0.element.bandwidth != nil }
        func pin(_ index: Int) -> Limits {
            guard let bw = renditions[index].bandwidth else { return Limits(maxBitrate: cap) }
            if let cap, bw > cap { return Limits(maxBitrate: cap) }  // the policy wins over the user's pin
            return Limits(minBitrate: bw, maxBitrate: bw, pinned: index)
        }
        switch choice {
        case .auto:
            return Limits(maxBitrate: cap)
        case .index(let i):
            return renditions.indices.contains(i) ? pin(i) : Limits(maxBitrate: cap)
        case .height(let h):
            let tall = known.filter { ($0.element.resolution?.height ?? 0) <= h }
            let best = tall.max { ($0.element.resolution?.height ?? 0, $0.element.bandwidth!) < ($1.element.resolution?.height ?? 0, $1.element.bandwidth!) }
                ?? known.min { $0.element.bandwidth! < $1.element.bandwidth! }
            return best.map { pin($0.offset) } ?? Limits(maxBitrate: cap)
        case .maxHeight(let h):
            let allowed = known.filter { ($0.element.resolution?.height ?? Int.max) <= h }.map { $0.element.bandwidth! }.max()
            return Limits(maxBitrate: [allowed ?? known.map { $0.element.bandwidth! }.min(), cap].compactMap { $0 }.min())
        case .maxBitrate(let b):
            return Limits(maxBitrate: [b, cap].compactMap { $0 }.min())
        }
    }

    /// "720p", else the bandwidth in kbit/s, for titles and menus.
    public static func label(_ v: HLSVariant) -> String {
        v.resolution.map { "\($0.height)p" } ?? v.bandwidth.map { "\($0 / 1000) kbit/s" } ?? v.uri
    }
}
