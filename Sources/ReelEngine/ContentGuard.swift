import CGStreamer
import CReelFrame
import ReelCore

/// The first bytes of every source decide what reaches a demuxer (`reel_content_guard.h`,
/// `ContentSniff`): in Reel's sessions a manifest plays only from a loopback gateway of this
/// process, which has bounded its numbers (`GatewayAddresses`), and a web page never plays. A refused source fails
/// its item with `PlaybackError.refusedContent`; the queue routes an unrouted manifest through the
/// gateway and loads it again.
public enum ContentGuard {
    /// Which manifests a source not from a gateway may not be (a web page never may).
    public enum Manifests: Sendable {
        /// Every manifest plays as it comes (the engine alone).
        case allowed
        /// DASH only through a gateway (`REEL_DIRECT_HLS=1`: HLS goes to hlsdemux2 directly).
        case dashRefused
        /// Neither DASH nor HLS but through a gateway (Reel's sessions).
        case refused
    }

    /// The classifier for a source (C function pointers carry no context: one per policy).
    static func classifier(_ manifests: Manifests) -> ReelContentClassifier {
        switch manifests {
        case .allowed: webPagesOnly
        case .dashRefused: dashAndWebPages
        case .refused: manifestsAndWebPages
        }
    }

    private static let webPagesOnly: ReelContentClassifier = { data, size, _ in
        guard let data, ContentSniff.kind(of: UnsafeBufferPointer(start: data, count: size)) == .webPage else { return 0 }
        return Int32(SniffedContent.webPage.rawValue)
    }

    private static let dashAndWebPages: ReelContentClassifier = { data, size, location in
        guard let data, let kind = ContentSniff.kind(of: UnsafeBufferPointer(start: data, count: size)), kind != .hlsPlaylist else { return 0 }
        if kind.isManifest, let location, GatewayAddresses.contains(String(cString: location)) { return 0 }
        return Int32(kind.rawValue)
    }

    private static let manifestsAndWebPages: ReelContentClassifier = { data, size, location in
        guard let data, let kind = ContentSniff.kind(of: UnsafeBufferPointer(start: data, count: size)) else { return 0 }
        if kind.isManifest, let location, GatewayAddresses.contains(String(cString: location)) { return 0 }
        return Int32(kind.rawValue)
    }

    /// GstDiscoverer's sources: never a DASH manifest (its decodebin takes the legacy dashdemux,
    /// which 1.22 cannot be trusted with), an HLS playlist only from a gateway, never a web page.
    static let discoverer: ReelContentClassifier = { data, size, location in
        guard let data, let kind = ContentSniff.kind(of: UnsafeBufferPointer(start: data, count: size)) else { return 0 }
        if kind == .hlsPlaylist, let location, GatewayAddresses.contains(String(cString: location)) { return 0 }
        return Int32(kind.rawValue)
    }

    static func guardSource(_ source: UnsafeMutablePointer<GstElement>, refusing manifests: Manifests) {
        reel_content_guard_attach(UnsafeMutableRawPointer(source), classifier(manifests))
    }
}
