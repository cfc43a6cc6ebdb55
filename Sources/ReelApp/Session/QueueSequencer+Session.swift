import ReelCore
import ReelEngine

// The sequencer as a session builds it: over ReelEngine's `Player`, GLib's clock, GstDiscoverer's
// prober and the gateway's router.
extension QueueSequencer {
    convenience init(player: Player, queue: PlayQueue = PlayQueue()) {
        self.init(engine: player, queue: queue, clock: MainQueueClock(), prober: DiscovererLayoutProber())
    }

    /// The engine as ReelEngine's `Player`, for what only it has (captures, volume, the window);
    /// every session's sequencer has one.
    var player: Player! { engine as? Player }

    /// The router as the gateway's, for fetching playlists with the same credentials rule.
    var gatewayRouter: GatewayRouter? { router as? GatewayRouter }
}

extension GatewayRouter: ItemRouting {
    func playedURI(for item: QueueItem) throws(ProtectedEntryOptions.OptionError) -> String {
        // The command line's live options are for what the command line brought (its inputs and
        // their playlists' entries), not for what arrives over the socket, MPRIS or the window.
        let base = item.arrival == .control ? nil : defaultLive.withLock { $0 }
        let live: LiveProgram?
        do { live = try LiveProgram.parse(item.options, base: base) } catch {
            throw .invalid(option: error.option, reason: error.message)
        }
        let routed = try loadURI(for: item.uri, arrival: item.arrival, entry: try ProtectedEntryOptions(options: item.options), live: live)
        bind(item.id, routedURI: routed)
        return routed
    }

    func canRoute(_ content: SniffedContent, for item: QueueItem) -> Bool { canRoute(content, uri: item.uri) }
    func routeByContent(_ content: SniffedContent, for item: QueueItem) { routeByContent(content, uri: item.uri) }

    /// Through the gateway: it sees which HLS variant each segment came from, and which DASH
    /// Representation (`DASHMediaMatcher`).
    func reportsFetchedRenditions(for playedURI: String) -> Bool { isRouted(playedURI) }

    /// dashdemux2 1.22 starts every video stream at its lowest Representation
    /// (`gst_mpd_client2_setup_streaming`) and applies the bitrate window from the second fragment.
    func fetchesFirstAtLowest(for playedURI: String) -> Bool { originalURI(for: playedURI).map(DASHManifest.isDASH) ?? false }
}
