import Foundation

/// Whether an item may use the network now, and how: the one place where the network state and the
/// user's metered policy meet. Pure; the sequencer asks it before every load and on every change
/// of the network.
///
/// - Local files always play; so do items on a loopback host (they cost nothing and need no
///   network), unless `loopbackIsRemote` (for testing the policy against local servers).
/// - With no network, a network item waits (it does not fail; see `QueueSequencer`).
/// - On a metered connection: `block` refuses to start it (unless the user said "Play anyway"
///   for that item; one already playing goes on), `cap` plays it with adaptive streams capped
///   (`bitrateCap`: `meteredMaxBitrate`, else 1 bit/s, the lowest rendition, since an adaptive
///   demuxer falls back to its lowest variant when none fits), `allow` plays it as on any network.
public struct NetworkRule: Sendable, Equatable {
    public var policy: MeteredPolicy
    /// The cap while metered with `cap`; nil: the lowest rendition.
    public var meteredMaxBitrate: Int?
    /// Treat loopback hosts as remote (tests of the policy against servers on 127.0.0.1).
    public var loopbackIsRemote: Bool

    public init(policy: MeteredPolicy = .default, meteredMaxBitrate: Int? = nil, loopbackIsRemote: Bool = false) {
        self.policy = policy
        self.meteredMaxBitrate = meteredMaxBitrate
        self.loopbackIsRemote = loopbackIsRemote
    }

    public enum Verdict: Equatable, Sendable {
        case play
        /// Wait for the network to come back.
        case wait
        /// Do not play: the policy forbids it.
        case refuse(PlaybackError)
    }

    /// The bitrate that means "the lowest rendition": below any variant's BANDWIDTH.
    public static let lowestRendition = 1

    /// Whether `uri` needs the network under this rule.
    public func needsNetwork(_ uri: String) -> Bool {
        guard MediaLocator.isNetwork(uri) else { return false }
        return loopbackIsRemote || !Self.isLoopback(uri)
    }

    /// - Parameter playAnyway: the user chose to play this item despite `block`.
    public func verdict(for uri: String, network: NetworkState, playAnyway: Bool = false) -> Verdict {
        guard needsNetwork(uri) else { return .play }
        guard network.available else { return .wait }
        guard network.metered, policy == .block, !playAnyway else { return .play }
        return .refuse(PlaybackError(kind: .preventedByPolicy,
                                     message: "Not played: the connection is metered and the metered policy is “block” (choose Play anyway, or --metered allow|cap).",
                                     uri: uri))
    }

    /// The cap on adaptive streams' bitrate on `network` (bits/s), nil for none.
    public func bitrateCap(on network: NetworkState) -> Int? {
        network.metered && policy == .cap ? meteredMaxBitrate ?? Self.lowestRendition : nil
    }

    /// 127.0.0.0/8, ::1 and localhost.
    public static func isLoopback(_ uri: String) -> Bool {
        guard let host = URLComponents(string: uri)?.host?.lowercased() else { return false }
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if bare == "localhost" || bare.hasSuffix(".localhost") || bare == "::1" { return true }
        let parts = bare.split(separator: ".")
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }
}
