import Foundation
import ReelCore
import ReelEngine
import ReelGateway
import Synchronization

/// Decides which items go through the gateway, starts it on first need, and hands back the URI
/// playbin3 should get. It also remembers what the gateway saw go wrong per item, so that the
/// player's error (often vague for HLS: "wrong type", "not found") can be replaced with the
/// gateway's ("not authorized … HTTP 401"). Call it from the main thread (or any plain thread):
/// starting and stopping the gateway block the caller, never from a Swift concurrency thread.
final class GatewayRouter: Sendable {
    let settings: ProtectedStreamSettings
    private let state = Mutex<State>(State())

    /// Held while a gateway starts: two threads routing their first item at once start one
    /// gateway, not two (the second, dropped without a shutdown, ended Reel in its deinit).
    private let starting = Mutex(())
    private struct State {
        var gateway: Gateway?
        /// Set by `shutdown`: an item routed after it (a preload racing the quit) starts no gateway.
        var closed = false
        /// Gateway URL → item id.
        var routed: [String: GatewayItemID] = [:]
        /// Gateway URL → the item's own URI.
        var originals: [String: String] = [:]
        var errors: [GatewayItemID: PlaybackError] = [:]
        /// One token provider per bucket (they cache and refresh independently).
        var providers: [String: TokenProvider] = [:]
        /// The live state of an HLS or DASH item.
        var live: [GatewayItemID: LiveStream] = [:]
        /// The queue item each gateway item plays (`bind`): what the gateway says of an item is
        /// told by the queue item's id, never by comparing URIs.
        var queueItems: [UUID: GatewayItemID] = [:]
        /// The item's URI → its playlist as the queue builder fetched it (kept 30 s).
        var prefetched: [String: PrefetchedPlaylist] = [:]
        /// Items' URIs whose first bytes were found to be a manifest (`routeByContent`).
        var manifests: [String: SniffedContent] = [:]
    }

    /// Whether `uri` (an item's own) was found to be a manifest that has not gone through the
    /// gateway yet: then `routeByContent` routes it.
    func canRoute(_ content: SniffedContent, uri: String) -> Bool {
        content.isManifest && state.withLock { $0.manifests[MediaLocator.uri(for: uri)] == nil }
    }

    /// From now on `uri` goes through the gateway as the manifest its bytes say it is, whatever
    /// its name (a DASH MPD at `/manifest?format=mpd`, in a file named movie.mp4): the gateway
    /// bounds it (`ManifestBounds`) before any demuxer reads it.
    func routeByContent(_ content: SniffedContent, uri: String) {
        guard content.isManifest else { return }
        state.withLock { $0.manifests[MediaLocator.uri(for: uri)] = content }
    }

    /// The command line's live options (`--live-mode` …), for items that do not set their own.
    let defaultLive = Mutex<LiveProgram?>(nil)

    /// Told (on a gateway thread) when a queue item's media requests move to another rendition:
    /// (the queue item's id, the rendition's URI as told: an HLS variant's gateway URL as its master
    /// lists it, a DASH Representation's `@id`).
    let onVariantFetched = Mutex<(@Sendable (UUID, String) -> Void)?>(nil)
    /// A queue item's renditions as the gateway first serves its master (its id, the renditions,
    /// `done` once the bitrate window is on the engine): see `Gateway.RenditionsHandler`.
    let onRenditions = Mutex<(@Sendable (UUID, [HLSVariant], @escaping @Sendable () -> Void) -> Void)?>(nil)

    /// Whether the item played as `playedURI` goes through the gateway (its fetches are seen).
    func isRouted(_ playedURI: String) -> Bool { state.withLock { $0.routed[playedURI] != nil } }

    /// `--record DIR`: made with the router, so that the events are recorded from the start.
    let recorder: SessionRecorder?

    init(settings: ProtectedStreamSettings) {
        self.settings = settings
        var recorder: SessionRecorder?
        if let directory = settings.record {
            do {
                recorder = try SessionRecorder(directory: directory, inputs: settings.inputs, maximumBytes: settings.recordMax)
                recorder?.onStopped.withLock { $0 = { Diagnostics.say($0) } }
            } catch {
                Diagnostics.say(String(format: tr("nothing is recorded: %@"), "\(error)"))
            }
        }
        self.recorder = recorder
        for note in settings.replay?.notes ?? [] { Diagnostics.say(String(format: tr("--replay-faults: %@"), note)) }
    }

    /// The token provider for a bucket, from the configured token source (nil without one).
    func provider(bucket: String?) -> TokenProvider? {
        guard settings.tokenFile != nil || settings.tokenURL != nil else { return nil }
        return state.withLock { s in
            let key = bucket ?? ""
            if let p = s.providers[key] { return p }
            let p: TokenProvider
            if let file = settings.tokenFile {
                p = TokenProvider.file(file, bucket: bucket)
            } else {
                p = TokenEndpoint.provider(url: settings.tokenURL!, bucket: bucket, trustedCertificatesPath: settings.caFile)
            }
            s.providers[key] = p
            return p
        }
    }

    /// The URI to load for `input` (a path or URI) that arrived as `arrival`: the gateway's URL
    /// for protected network items, the input's URI otherwise. What credentials the item gets
    /// is `CredentialPolicy`'s decision, from how it arrived and the playlist entry's own options
    /// (`entry`). Throws when the gateway cannot start.
    ///
    /// Every HLS item goes through the gateway (a network one when its path ends in `.m3u8` or it
    /// has live options), so that a live one's playlists are read and edited (`LiveStream`):
    /// `live` is its programme, nil for plain live playback. `representation`: one video
    /// Representation of a DASH MPD played alone (`GatewayItem.representation`), local or not.
    func uri(for input: String, arrival: ItemArrival = .commandLine, entry: ProtectedEntryOptions = ProtectedEntryOptions(),
             live: LiveProgram? = nil, representation: String? = nil) throws -> String {
        let uri = MediaLocator.uri(for: input)
        let sniffed = state.withLock { $0.manifests[uri] }
        if let path = MediaLocator.localPath(of: uri),
           Self.isLocalHLSPlaylist(path) || path.lowercased().hasSuffix(".mpd") || representation != nil || sniffed != nil
            || ContentSniff.kind(ofFile: path)?.isManifest == true {
            // hlsdemux2 fetches with libsoup only: a local HLS stream is served over loopback.
            // A local MPD too, by its bytes whatever its name: the gateway refuses one whose
            // numbers are out of bounds (`DASHNumber`; dashdemux2 1.22 divides by zero on
            // `duration="1e-300"`) and filters Representations.
            var item = GatewayItem(url: URL(fileURLWithPath: path))
            item.live = LiveStream(program: live)
            item.representation = representation
            return register(item, originalURI: uri, in: try startedGateway())
        }
        guard MediaLocator.isNetwork(uri), let itemURL = URL(string: uri) else { return uri }
        // Restart and catchup at the origin: the gateway asks for the time-shifted URL; events
        // and reports still name the item's own.
        let url = live?.timeshiftedURL(for: itemURL, now: Date()) ?? itemURL
        // An event URL with its own token (`?Authorization=…`) and no token source: the token
        // leaves the URL and goes on every request of the stream, to its origin (seed 000).
        if settings.tokenFile == nil, settings.tokenURL == nil, let (stripped, token) = URLTokenParameter.extract(from: uri),
           let strippedURL = URL(string: stripped) {
            Redactor.register(secret: token)
            var item = gatewayItem(live?.timeshiftedURL(for: strippedURL, now: Date()) ?? strippedURL, decide(stripped, arrival: arrival, entry: entry))
            item.tokenProvider = TokenProvider.fixed(token)
            item.live = LiveStream(program: live)
            item.representation = representation
            return register(item, originalURI: uri, in: try startedGateway())
        }
        let decision = decide(uri, arrival: arrival, entry: entry)
        // A DASH MPD too: a dynamic one's window is read as it is served (`DASHLiveWindow`).
        let isHLS = (itemURL.pathExtension.lowercased() == "m3u8" && !Self.directHLS) || live != nil || sniffed == .hlsPlaylist
        let isDASH = (itemURL.pathExtension.lowercased() == "mpd" && !Self.directHLS) || sniffed == .dashManifest
        guard settings.isActive || decision.needsGateway || isHLS || isDASH || representation != nil else { return uri }
        var item = gatewayItem(url, decision)
        item.representation = representation
        if isHLS || isDASH { item.live = LiveStream(program: live) }
        if item.headers.isEmpty, item.tokenProvider == nil, url == itemURL {
            item.prefetched = state.withLock { $0.prefetched.removeValue(forKey: uri) }
        }
        return register(item, originalURI: uri, in: try startedGateway())
    }

    /// Whether an item with these options (and the command line's live options, unless it came
    /// over the socket) is asked of its origin time-shifted (`--timeshift-url`): a stream, never
    /// looked at beforehand (the look would ask for the live playlist).
    func isTimeShifted(options: [String: [String]], arrival: ItemArrival) -> Bool {
        let base = arrival == .control ? nil : defaultLive.withLock { $0 }
        guard let program = (try? LiveProgram.parse(options, base: base)) ?? nil, program.isAtOrigin else { return false }
        return program.effectiveMode(at: Date()) != .live
    }

    /// An HLS playlist the queue builder fetched (without credentials) to tell a stream from a
    /// list: its item's first request is answered from it (`GatewayItem.prefetched`).
    func remember(prefetched data: Data, url: String, finalURL: URL) {
        let playlist = PrefetchedPlaylist(text: String(decoding: data, as: UTF8.self), base: finalURL)
        state.withLock { s in
            s.prefetched = s.prefetched.filter { $0.value.isFresh }
            s.prefetched[url] = playlist
        }
    }

    /// `REEL_DIRECT_HLS=1`: plain HLS items (no credentials, no live options) go to hlsdemux2
    /// directly, as before every HLS item went through the gateway: no live window, no wall-clock
    /// time, hlsdemux2's own start. For `make bench`'s measure of what the gateway costs.
    static let directHLS = ProcessInfo.processInfo.environment["REEL_DIRECT_HLS"] == "1"

    /// What the engine refuses of a source that is not the gateway's: every manifest (the queue
    /// then routes it here by its bytes), or DASH only under `REEL_DIRECT_HLS=1`.
    static var unroutedManifests: ContentGuard.Manifests { directHLS ? .dashRefused : .refused }

    /// The live state of a queue item played through the gateway (nil for anything else).
    func liveStream(for item: UUID) -> LiveStream? { state.withLock { s in s.queueItems[item].flatMap { s.live[$0] } } }

    /// The I-frame playlist of a queue item's HLS master, through the gateway (`Gateway.iFramePlaylist`).
    func iFramePlaylist(for item: UUID) -> URL? {
        let (gateway, id) = state.withLock { s in (s.gateway, s.queueItems[item]) }
        return id.flatMap { gateway?.iFramePlaylist($0) }
    }

    /// The queue item `item` plays as `routedURI` (`ItemRouting.playedURI(for:)`).
    func bind(_ item: UUID, routedURI: String) {
        state.withLock { s in if let id = s.routed[routedURI] { s.queueItems[item] = id } }
    }

    private func queueItem(of id: GatewayItemID) -> UUID? {
        state.withLock { s in s.queueItems.first { $0.value == id }?.key }
    }

    /// The credential rule's decision for an item, said on stderr when the entry asked for more
    /// than it may have.
    private func decide(_ uri: String, arrival: ItemArrival, entry: ProtectedEntryOptions) -> CredentialDecision {
        for header in entry.headers { header.registerSecret() }
        let decision = CredentialPolicy.decide(uri: uri, arrival: arrival, entry: entry, grant: settings.grant)
        if !decision.refused.isEmpty {
            Diagnostics.say(String(format: tr("%@: ignored the playlist option(s) %@: credentials go only where the command line sent them (see docs/PROTECTED-STREAMS.md)"),
                                   Redactor.redactURL(uri), decision.refused.joined(separator: ", ")))
        }
        return decision
    }

    private func gatewayItem(_ url: URL, _ d: CredentialDecision) -> GatewayItem {
        let g = d.granted
        return GatewayItem(url: url, headers: (d.sessionCredentials ? settings.headers : []) + g.headers, allowedHosts: g.allowedHosts,
                           tokenProvider: d.sessionCredentials ? provider(bucket: g.bucket ?? settings.bucket) : nil,
                           placement: g.placement ?? settings.placement, finished: g.finished || settings.finished, endsAt: g.endsAt)
    }

    /// Whether a network `.m3u8` input is a stream that gets credentials: it is then played
    /// through the gateway and never fetched beforehand (HLS is never expanded anyway).
    func isProtectedStream(_ uri: String, arrival: ItemArrival, entry: ProtectedEntryOptions = ProtectedEntryOptions()) -> Bool {
        guard URL(string: uri)?.pathExtension.lowercased() == "m3u8" else { return false }
        if settings.tokenFile == nil, settings.tokenURL == nil, URLTokenParameter.extract(from: uri) != nil { return true }  // its own token
        let decision = CredentialPolicy.decide(uri: uri, arrival: arrival, entry: entry, grant: settings.grant)
        return decision.sessionCredentials || !decision.granted.headers.isEmpty
    }

    /// Fetches an M3U/PLS/XSPF playlist to expand, with the credentials the rule gives it: through
    /// the gateway (as a pass-through item, so the same header, token, redirect and log rules
    /// apply) when it gets any or the session logs or trusts extra CAs, plainly otherwise.
    /// Blocks: call it from a plain thread.
    func fetchPlaylist(_ url: URL, arrival: ItemArrival, entry: ProtectedEntryOptions = ProtectedEntryOptions()) -> PlaylistDownload.Outcome {
        let decision = decide(url.absoluteString, arrival: arrival, entry: entry)
        guard settings.isActive || decision.needsGateway, let gateway = try? startedGateway() else { return PlaylistDownload.fetchBlocking(url) }
        var item = gatewayItem(url, decision)
        item.rewritesPlaylists = false
        let (id, routed) = gateway.register(item)
        defer { gateway.unregister(id) }
        switch PlaylistDownload.fetchBlocking(routed) {
        case .data(let data, _): return .data(data, finalURL: url)
        case .failed(let why): return .failed(state.withLock { $0.errors[id]?.message } ?? why)
        case .tooLarge(let why): return .tooLarge(why)
        case .timedOut(let why): return .timedOut(why)
        }
    }

    private func register(_ item: GatewayItem, originalURI uri: String, in gateway: Gateway) -> String {
        let (id, routed) = gateway.register(item)
        state.withLock {
            $0.routed[routed.absoluteString] = id
            $0.originals[routed.absoluteString] = uri
            if let live = item.live { $0.live[id] = live }
        }
        return routed.absoluteString
    }

    /// A local `.m3u8`/`.m3u` file whose text is an HLS playlist (`#EXT-X-` tags), judged from
    /// its first 64 KiB.
    static func isLocalHLSPlaylist(_ path: String) -> Bool {
        guard PlaylistFormat.fromExtension(path) == .m3u, let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 64 * 1024), HLSPlaylist.looksLikePlaylist(bytes: head) else { return false }
        return PlaylistFormat.detect(text: String(decoding: head, as: UTF8.self), name: path) == .hls
    }

    /// `uri(for:)` for the session. Fails closed: when the gateway an item needs cannot start, the
    /// item fails with that error (it used to play directly: without its `--header`, and with a
    /// playlist entry's header following a redirect to another host).
    func loadURI(for input: String, arrival: ItemArrival = .commandLine, entry: ProtectedEntryOptions = ProtectedEntryOptions(),
                 live: LiveProgram? = nil) throws(ProtectedEntryOptions.OptionError) -> String {
        do { return try uri(for: input, arrival: arrival, entry: entry, live: live) } catch {
            throw .gatewayUnavailable(reason: Redactor.redactText("\(error)"))
        }
    }

    /// The item's own URI for a gateway URL (what events and reports should name).
    func originalURI(for routedURI: String) -> String? { state.withLock { $0.originals[routedURI] } }

    /// An event as the user should see it: item URIs are the item's own, and an error is the
    /// gateway's when it saw what went wrong.
    func refine(_ event: PlayerEvent, uri: String?) -> PlayerEvent {
        switch event {
        case .itemChanged(let index, let routed, let title):
            guard let original = originalURI(for: routed) else { return event }
            return .itemChanged(index: index, uri: Redactor.redactURL(original), title: title)
        case .error(let error):
            return .error(refine(error, uri: uri))
        case .status(.failed(let error)):
            return .status(.failed(refine(error, uri: uri)))
        case .warning(var warning):
            if let uri, let original = originalURI(for: uri) { warning.uri = Redactor.redactURL(original) }
            return .warning(warning)
        default:
            return event
        }
    }

    /// The gateway's error for a routed URI, when it saw one (the first not-authorized one wins).
    func gatewayError(for routedURI: String) -> PlaybackError? {
        state.withLock { s in s.routed[routedURI].flatMap { s.errors[$0] } }
    }

    /// The error to show for a failed item: the gateway's when it has one, the player's otherwise.
    func refine(_ error: PlaybackError, uri: String?) -> PlaybackError {
        guard let uri, originalURI(for: uri) != nil else { return error }
        // The gateway's account wins when it explains a refusal, or when the engine's own is
        // vague about the network (hlsdemux2 reports a refused playlist as "wrong type").
        let vague: Set<PlaybackErrorKind> = [.network, .notFound, .unsupportedFormat, .unknown, .timeout, .serverError, .notAuthorized]
        if let gatewayError = gatewayError(for: uri), gatewayError.kind == .notAuthorized || vague.contains(error.kind) { return gatewayError }
        var error = error
        error.uri = originalURI(for: uri).map(Redactor.redactURL)
        return error
    }

    /// Forgets a routed item (its gateway URLs stop working).
    func release(_ routedURI: String) {
        let id = state.withLock { s -> GatewayItemID? in
            s.originals.removeValue(forKey: routedURI)
            guard let id = s.routed.removeValue(forKey: routedURI) else { return nil }
            s.live.removeValue(forKey: id)
            s.queueItems = s.queueItems.filter { $0.value != id }
            return id
        }
        if let id { state.withLock { $0.gateway }?.unregister(id) }
    }

    var gateway: Gateway? { state.withLock { $0.gateway } }

    func shutdown() {
        let gateway = starting.withLock { _ in
            state.withLock { s -> Gateway? in
                defer { s.gateway = nil; s.closed = true }
                return s.gateway
            }
        }
        recorder?.close()  // before the gateway cancels what is under way
        gateway?.shutdownBlocking()
    }

    private func startedGateway() throws -> Gateway {
        if let g = state.withLock({ $0.gateway }) { return g }
        return try starting.withLock { _ in try startGateway() }
    }

    /// Under `starting`.
    private func startGateway() throws -> Gateway {
        let (running, closed) = state.withLock { ($0.gateway, $0.closed) }
        if let running { return running }
        if closed { throw PlaybackError(kind: .unknown, message: tr("Reel is stopping")) }
        let upstream: UpstreamMode = settings.replay.map { .replay($0) } ?? recorder.map { .record($0) } ?? .network
        let gateway = try Gateway.startBlocking(.init(httpLogPath: settings.httpLogPath, trustedCertificatesPath: settings.caFile, upstream: upstream))
        gateway.setErrorHandler { [weak self] id, error in
            self?.state.withLock { s in
                // Keep the first error, unless a not-authorized one comes later (it explains the rest).
                if let old = s.errors[id], old.kind == .notAuthorized || error.kind != .notAuthorized { return }
                s.errors[id] = error
            }
        }
        gateway.setVariantFetchedHandler { [weak self] id, variant in
            guard let self, let item = self.queueItem(of: id) else { return }
            self.onVariantFetched.withLock { $0 }?(item, variant)
        }
        gateway.setRenditionsHandler { [weak self] id, renditions, done in
            guard let self, let item = self.queueItem(of: id), let handler = self.onRenditions.withLock({ $0 }) else { return done() }
            handler(item, renditions, done)
        }
        gateway.setVariantHandler { [weak self] id, url, error in
            let original = self?.state.withLock { s in s.routed.first { $0.value == id }.flatMap { s.originals[$0.key] } }
            Diagnostics.say(String(format: tr("%@: the variant %@ is left out (%@); the others play"),
                                   Redactor.redactURL(original ?? url.absoluteString), Redactor.redactURL(url.absoluteString), error.message))
        }
        state.withLock { $0.gateway = gateway }
        return gateway
    }
}
