import CGStreamer
import CReelFrame
import ReelCore

/// The first bytes of every source decide what reaches a demuxer (`reel_content_guard.h`,
/// `ContentSniff`): a manifest plays only from a loopback gateway of this process, which has
/// bounded its numbers (`GatewayAddresses`), and a web page never plays. A refused source fails
/// its item with `PlaybackError.refusedContent`; the queue routes an unrouted manifest through the
/// gateway and loads it again.
enum ContentGuard {
    /// playbin3's sources (source-setup).
    static let playback: ReelContentClassifier = { data, size, location in
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

    static func guardSource(_ source: UnsafeMutablePointer<GstElement>) {
        reel_content_guard_attach(UnsafeMutableRawPointer(source), playback)
    }
}
