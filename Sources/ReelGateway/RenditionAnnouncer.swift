import Foundation
import ReelCore
import Synchronization

/// Tells the app an item's renditions the first time the gateway serves its master (an HLS master
/// playlist, a DASH MPD), and holds that answer until the app has put its bitrate window in force
/// (or `bound` has passed): the demuxer chooses its first variant from the master it receives, so
/// a `--quality` pin or Reel's start choice must be on the demuxer before it reads the master, not
/// whenever the app's main thread (busy building a window at start) reads the master itself.
/// The renditions are read from the rewritten master: their URIs are the gateway's, as the
/// player fetches them.
final class RenditionAnnouncer: Sendable {
    /// Called on a gateway thread; `done` must be called once the window is in force.
    typealias Handler = @Sendable (GatewayItemID, [HLSVariant], _ done: @escaping @Sendable () -> Void) -> Void

    let handler = Mutex<Handler?>(nil)
    /// How long a master's answer waits for the app at most.
    let bound: Duration
    private let announced = Mutex<Set<GatewayItemID>>([])
    /// Each HLS item's lowest I-frame playlist, as served (a gateway URL): seek-bar previews read it.
    private let iFrames = Mutex<[GatewayItemID: String]>([:])
    /// Each DASH item's video Representations by their media, and the one fetched last.
    private let dashMedia = Mutex<[GatewayItemID: (last: String?, matcher: DASHMediaMatcher)]>([:])

    init(bound: Duration = .seconds(3)) { self.bound = bound }

    /// An HLS master (rewritten, as served): its variants, I-frame playlists left out (the lowest
    /// of those is kept for `iFramePlaylist`).
    func announceMaster(_ rewritten: String, item: GatewayItemID) async {
        guard let master = (try? HLSPlaylist.parse(rewritten))?.master else { return }
        if let lowest = master.iFramePlaylists.min(by: { ($0.bandwidth ?? .max) < ($1.bandwidth ?? .max) }) {
            iFrames.withLock { $0[item] = lowest.uri }
        }
        guard handler.withLock({ $0 }) != nil, !announced.withLock({ $0.contains(item) }) else { return }
        await announce(RenditionSelector.renditions(of: master), item: item)
    }

    /// A DASH MPD (rewritten, as served): its video Representations.
    func announceMPD(_ rewritten: String, item: GatewayItemID) async {
        guard handler.withLock({ $0 }) != nil, !announced.withLock({ $0.contains(item) }) else { return }
        await announce(DASHManifest.videoRenditions(rewritten), item: item)
    }

    /// The lowest-bandwidth I-frame playlist of the item's master, as served; nil without one.
    func iFramePlaylist(_ item: GatewayItemID) -> String? { iFrames.withLock { $0[item] } }

    /// The item left the gateway.
    func forget(_ item: GatewayItemID) {
        _ = iFrames.withLock { $0.removeValue(forKey: item) }
        _ = announced.withLock { $0.remove(item) }
        _ = dashMedia.withLock { $0.removeValue(forKey: item) }
    }

    /// A DASH MPD as fetched from upstream (`base`): its video Representations' media, to know
    /// which one a segment request is (`fetchedDASH`). A refresh replaces them.
    func servedMPD(_ upstream: String, base: URL, item: GatewayItemID) {
        guard let matcher = DASHMediaMatcher(upstream, base: base), !matcher.isEmpty else { return }
        dashMedia.withLock { $0[item] = ($0[item]?.last, matcher) }
    }

    /// The Representation whose media `url` (upstream) is, when it is another than the last one
    /// fetched for the item; nil otherwise.
    func fetchedDASH(_ url: URL, item: GatewayItemID) -> String? {
        dashMedia.withLock { media in
            guard let entry = media[item], let id = entry.matcher.representation(of: url), id != entry.last else { return nil }
            media[item] = (id, entry.matcher)
            return id
        }
    }

    private func announce(_ renditions: [HLSVariant], item: GatewayItemID) async {
        guard renditions.count > 1, let handler = handler.withLock({ $0 }),
              announced.withLock({ $0.insert(item).inserted }) else { return }
        let once = Once()
        let bound = self.bound
        Log.debug(.gateway, .info, "item \(item.rawValue): \(renditions.count) renditions told to the app; its master waits for the window")
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            let finish: @Sendable () -> Void = { if once.claim() { c.resume() } }
            handler(item, renditions, finish)
            Task.detached {
                try? await Task.sleep(for: bound)
                finish()
            }
        }
    }

    private final class Once: Sendable {
        private let done = Mutex(false)
        func claim() -> Bool { done.withLock { d in defer { d = true }; return !d } }
    }
}
