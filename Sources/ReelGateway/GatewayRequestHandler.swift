import AsyncHTTPClient
import NIOSSL
import Foundation
import NIOCore
import NIOHTTP1
import ReelCore
import Synchronization

/// Serves the gateway's connections: one request at a time per connection (keep-alive), each
/// answered from upstream. See `Gateway` for the contract.
final class GatewayRequestHandler: Sendable {
    typealias Connection = NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>

    let registry = GatewayRegistry()
    let baseURL: String
    let client: HTTPClient
    let log: HTTPRequestLog?
    let maximumPlaylistBytes: Int
    let errorHandler = Mutex<Gateway.ErrorHandler?>(nil)
    let variantHandler = Mutex<Gateway.VariantHandler?>(nil)
    let variantFetchedHandler = Mutex<Gateway.VariantFetchedHandler?>(nil)
    /// Masters served in the last seconds, their unavailable variants left out.
    let masters = MasterCache()
    /// Each item's renditions, told to the app before its master is first served.
    let renditions = RenditionAnnouncer()
    /// Each media playlist's segment times, for bare packed audio's ID3 timestamps.
    let packedAudio = PackedAudioClock()
    let upstreamRequests = Mutex(0)
    /// The answers under way, each stoppable (`Transfers`).
    let transfers = Transfers()

    /// Request headers passed from playbin3 to upstream (besides the item's own).
    static let forwardedRequestHeaders = ["Range", "If-Range", "User-Agent", "Accept", "Accept-Language", "Icy-MetaData"]
    /// Response headers passed from upstream to playbin3 for media bodies.
    /// `icy-*`: an internet radio's metadata interval (without it, souphttpsrc plays the
    /// interleaved titles as audio) and its station's name.
    static let forwardedResponseHeaders = ["Content-Type", "Content-Length", "Content-Range", "Accept-Ranges", "Last-Modified", "ETag",
                                           "Cache-Control", "Expires", "Date", "icy-metaint", "icy-name", "icy-genre", "icy-url",
                                           "icy-description", "icy-br"]

    /// Open client connections (bounded; see `ConnectionBook`).
    let connections: ConnectionBook
    /// Connections made by the server and not yet claimed (see `UnclaimedConnections`).
    let unclaimed: UnclaimedConnections
    /// Set when the gateway shuts down: connections accepted from then on are closed, not served.
    let stopping = Mutex(false)
    let maximumConnections: Int
    /// The gateway's port when only this process's connections are served (`LoopbackPeer`).
    let serverPort: Int?
    let refusedConnections = Mutex(0)
    /// An upstream response's head, and a whole playlist, within this.
    let transferDeadline: TimeAmount

    init(baseURL: String, client: HTTPClient, log: HTTPRequestLog?, maximumPlaylistBytes: Int,
         connections: ConnectionBook = ConnectionBook(), unclaimed: UnclaimedConnections = UnclaimedConnections(),
         maximumConnections: Int = 64, serverPort: Int? = nil, transferDeadline: TimeAmount = .seconds(30)) {
        self.transferDeadline = transferDeadline
        self.baseURL = baseURL
        self.unclaimed = unclaimed
        self.client = client
        self.log = log
        self.maximumPlaylistBytes = maximumPlaylistBytes
        self.connections = connections
        self.maximumConnections = maximumConnections
        self.serverPort = serverPort
    }

    // MARK: One request

    /// Answers one request; returns whether the connection may serve another.
    func respond(to head: HTTPRequestHead, outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>) async throws -> Bool {
        guard head.method == .GET || head.method == .HEAD else {
            try await simple(.methodNotAllowed, "Only GET and HEAD.\n", head: head, outbound: outbound)
            return head.isKeepAlive
        }
        if let (id, directory, rest) = registry.parseDirectory(path: head.uri) {
            return try await respondInDirectory(id: id, directory: directory, rest: rest, head: head, outbound: outbound)
        }
        guard let (id, index) = registry.parse(path: head.uri), let (item, resource) = registry.resource(item: id, index: index) else {
            try await simple(.notFound, "No such item in the gateway.\n", head: head, outbound: outbound)
            return head.isKeepAlive
        }
        // A master served moments ago, or being fetched now (the demuxer, the playlist reader and
        // the discoverer each ask at start): one upstream fetch, its variants checked once.
        let mayBeMaster = head.method == .GET && resource.kind.map { $0.isPlaylist } ?? true
        var leads = false
        if mayBeMaster {
            var cached = masters.fresh(item: id, resource: index)
            if cached == nil {
                leads = masters.lead(item: id, resource: index)
                if !leads { cached = await masters.wait(item: id, resource: index) }
            }
            if let cached {
                let output = rewrite(cached.text, base: cached.base, item: item, id: id, playlist: index)
                try await writePlaylist(output, head: head, outbound: outbound)
                return head.isKeepAlive
            }
        }
        defer { if leads { masters.finish(item: id, resource: index) } }
        // Fetched by Reel a moment ago (`GatewayItem.prefetched`): a master or a closed playlist
        // is not asked for again (a live one is: its window has moved since).
        if head.method == .GET, index == 0, let prefetched = item.prefetched?.take(),
           prefetched.text.contains("#EXT-X-STREAM-INF") || prefetched.text.contains("#EXT-X-ENDLIST") {
            return try await servePlaylist(prefetched.text, base: prefetched.base, item: item, id: id, resource: index, head: head, outbound: outbound)
        }
        if head.method == .GET, resource.kind?.isMediaData == true, let v = registry.variant(ofMedia: index, item: id), v.changed {
            // What plays is what is fetched: the first media of another variant says so.
            variantFetchedHandler.withLock { $0 }?(id, baseURL + registry.path(item: id, resource: v.variant, url: v.url))
        }
        return try await fetchAndRelay(item: item, id: id, resource: resource, number: index, head: head, outbound: outbound)
    }

    /// A request under a directory prefix (DASH segments, whatever an MPD resolves under a
    /// `BaseURL`): the directory's upstream URL with the rest of the path appended, fetched
    /// and relayed as media, with the item's credentials where its scope allows.
    private func respondInDirectory(id: GatewayItemID, directory: Int, rest: String, head: HTTPRequestHead,
                                    outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>) async throws -> Bool {
        guard let (item, dir) = registry.resource(item: id, index: directory), dir.url.absoluteString.hasSuffix("/"),
              let url = URL(string: dir.url.absoluteString + rest), url.host == dir.url.host, url.scheme == dir.url.scheme else {
            try await simple(.notFound, "No such item in the gateway.\n", head: head, outbound: outbound)
            return head.isKeepAlive
        }
        let isManifest = url.pathExtension.lowercased() == "mpd"
        if head.method == .GET, !isManifest, let representation = renditions.fetchedDASH(url, item: id) {
            // What plays is what is fetched: the first media of another Representation says so.
            variantFetchedHandler.withLock { $0 }?(id, representation)
        }
        let resource = GatewayRegistry.Resource(url: url, kind: isManifest ? nil : .segment, parent: directory)
        return try await fetchAndRelay(item: item, id: id, resource: resource, number: directory, head: head, outbound: outbound)
    }

    /// Fetches a resource and relays it; a failure (told to the app) is the answer instead.
    private func fetchAndRelay(item: GatewayItem, id: GatewayItemID, resource: GatewayRegistry.Resource, number: Int, head: HTTPRequestHead,
                               outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>) async throws -> Bool {
        switch await fetch(item: item, id: id, resource: resource, head: head, deadline: .now() + transferDeadline) {
        case .success(let upstream):
            return try await relay(upstream, item: item, id: id, resource: resource, number: number, head: head, outbound: outbound)
        case .failure(let failure):
            report(id, failure.error)
            try await simple(failure.status, failure.error.message + "\n", head: head, outbound: outbound)
            return head.isKeepAlive
        }
    }

    struct Upstream {
        var response: HTTPClientResponse
        /// The URL that answered (after redirects), without any token we added.
        var url: URL
        /// What was asked of upstream, for the log (redacted when written).
        var requestURL: String
        var method: String
        var started: ContinuousClock.Instant
        var note: String?
    }

    struct Failure: Error {
        var status: HTTPResponseStatus
        var error: PlaybackError
    }

    /// Fetches a resource: redirects followed here (credentials scoped), one token refresh on
    /// 401/403. Every attempt is logged.
    func fetch(item: GatewayItem, id: GatewayItemID, resource: GatewayRegistry.Resource, head: HTTPRequestHead,
                       deadline: NIODeadline = .distantFuture) async -> Result<Upstream, Failure> {
        // Only a local item's own files are read from disk; its http(s) references (a local
        // playlist of network segments) are fetched upstream, without credentials (no origin).
        if resource.url.isFileURL { return LocalFile.fetch(resource.url, item: item, head: head) }
        let scope = item.scope
        var token: String?
        if let provider = item.tokenProvider {
            do { token = try await provider.token() } catch {
                return .failure(Failure(status: .unauthorized, error: PlaybackError(
                    kind: .notAuthorized, message: "No token for this stream: \(error)", uri: resource.url.absoluteString)))
            }
        }
        var refreshed = false
        var notes: [String] = []
        attempt: while true {
            var url = resource.url
            var credentials = scope.allows(url)
            for _ in 0...RedirectCredentialRule.maximumRedirects {
                let request = makeRequest(url: url, kind: resource.kind, credentials: credentials, token: token, item: item, head: head)
                let started = ContinuousClock.now
                upstreamRequests.withLock { $0 += 1 }
                let response: HTTPClientResponse
                do {
                    response = try await client.execute(request, deadline: deadline)
                } catch {
                    logLine(request.method.rawValue, request.url, status: nil, bytes: 0, started: started, note: "\(error)")
                    return .failure(Failure(status: .badGateway, error: networkError(error, url: url)))
                }
                let status = Int(response.status.code)
                if RedirectCredentialRule.isRedirect(status), let location = response.headers["Location"].first,
                   let target = RedirectCredentialRule.target(location: location, requestURL: url) {
                    let drained = await drain(response)
                    let keeps = credentials && RedirectCredentialRule.keepsCredentials(from: url, to: target, scope: scope)
                    logLine(request.method.rawValue, request.url, status: status, bytes: drained, started: started,
                            note: keeps || !credentials ? "redirect" : "redirect credentials-dropped")
                    credentials = keeps
                    url = target
                    continue
                }
                if status == 401 || status == 403 {
                    let drained = await drain(response)
                    if let provider = item.tokenProvider, !refreshed {
                        logLine(request.method.rawValue, request.url, status: status, bytes: drained, started: started, note: "refreshing-token")
                        refreshed = true
                        notes.append("retry")
                        do { token = try await provider.refresh(rejected: token) } catch {
                            return .failure(Failure(status: HTTPResponseStatus(statusCode: status), error: PlaybackError(
                                kind: .notAuthorized, message: "Access was refused (HTTP \(status)) and no fresh token could be had: \(error)",
                                httpStatus: status, uri: url.absoluteString)))
                        }
                        continue attempt
                    }
                    logLine(request.method.rawValue, request.url, status: status, bytes: drained, started: started, note: "not-authorized")
                    return .failure(Failure(status: HTTPResponseStatus(statusCode: status), error: notAuthorized(status: status, url: url, kind: resource.kind)))
                }
                return .success(Upstream(response: response, url: url, requestURL: request.url, method: request.method.rawValue,
                                         started: started, note: notes.isEmpty ? nil : notes.joined(separator: " ")))
            }
            return .failure(Failure(status: .badGateway, error: PlaybackError(
                kind: .network, message: "Too many redirects (more than \(RedirectCredentialRule.maximumRedirects)).", uri: resource.url.absoluteString)))
        }
    }

    private func makeRequest(url: URL, kind: HLSURIKind?, credentials: Bool, token: String?, item: GatewayItem, head: HTTPRequestHead) -> HTTPClientRequest {
        var target = url.absoluteString
        if credentials, let token {
            // The provider's token replaces any `Authorization` parameter the URL already had
            // (a stale one from the item's URL or a playlist): in the query when placed there,
            // otherwise it is only removed, and the header carries the token.
            target = item.placement.usesQuery
                ? URIReference.settingQueryParameter(TokenPlacement.parameterName, to: token, in: target)
                : URIReference.removingQueryParameter(TokenPlacement.parameterName, from: target)
        }
        var request = HTTPClientRequest(url: target)
        request.method = head.method == .HEAD ? .HEAD : .GET
        // Playlists are fetched whole (they are rewritten): no Range for them.
        let ext = url.pathExtension.lowercased()
        let wholeBody = kind?.isPlaylist == true || ext == "m3u8" || ext == "m3u" || ext == "mpd"
        for name in Self.forwardedRequestHeaders where !(wholeBody && (name == "Range" || name == "If-Range")) {
            for value in head.headers[name] { request.headers.add(name: name, value: value) }
        }
        if !request.headers.contains(name: "User-Agent") { request.headers.add(name: "User-Agent", value: "Reel/0.1") }
        request.headers.replaceOrAdd(name: "Accept-Encoding", value: "identity")
        if credentials {
            for header in item.headers { request.headers.replaceOrAdd(name: header.name, value: header.value) }
            if let token, item.placement.usesHeader { request.headers.replaceOrAdd(name: TokenPlacement.parameterName, value: token) }
        }
        return request
    }

    // MARK: Relaying

    private func relay(_ upstream: Upstream, item: GatewayItem, id: GatewayItemID, resource: GatewayRegistry.Resource, number resourceNumber: Int,
                       head: HTTPRequestHead, outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>) async throws -> Bool {
        let response = upstream.response
        let status = Int(response.status.code)
        if head.method == .GET, head.headers[LiveSegmentGap.passErrorsHeader].isEmpty,
           LiveSegmentGap.answersAsGap(status: status, kind: resource.kind, live: item.live?.snapshot.map { !$0.hasEndList } == true) {
            // A live segment that failed: an empty 200, a gap hlsdemux2 1.22 survives (a 4xx/5xx
            // there aborts the process: `LiveSegmentGap`). `reel check --watch` asks for the truth.
            let drained = await drain(response)
            logLine(upstream.method, upstream.requestURL, status: status, bytes: drained, started: upstream.started, note: "live-gap")
            var headers = HTTPHeaders()
            headers.add(name: "Content-Type", value: response.headers["Content-Type"].first ?? "video/mp2t")
            headers.add(name: "Content-Length", value: "0")
            if !head.isKeepAlive { headers.add(name: "Connection", value: "close") }
            try await outbound.write(.head(HTTPResponseHead(version: head.version, status: .ok, headers: headers)))
            try await outbound.write(.end(nil))
            return head.isKeepAlive
        }
        if status >= 400 && status != 416 {
            // Not found, server errors: passed on (playbin3 reports them too), and told to the app.
            report(id, ErrorMapper.http(status: status, uri: upstream.url.absoluteString))
        }
        var bytes: Int64 = 0
        var note = upstream.note
        defer { logLine(upstream.method, upstream.requestURL, status: status, bytes: bytes, started: upstream.started, note: note) }

        var iterator = response.body.makeAsyncIterator()
        let contentType = response.headers["Content-Type"].first?.lowercased() ?? ""
        let ext = upstream.url.pathExtension.lowercased()
        var isPlaylist = false, isMPD = false
        var first: ByteBuffer?
        if status == 200 && head.method == .GET && item.rewritesPlaylists && resource.kind?.isMediaData != true && resource.kind != .key {
            if contentType.contains("dash+xml") || ext == "mpd" {
                isMPD = true
            } else if contentType.contains("mpegurl") || resource.kind?.isPlaylist == true || ext == "m3u8" || ext == "m3u" {
                isPlaylist = true
            } else {
                first = try await iterator.next()
                if let first { bytes += Int64(first.readableBytes) }
                isPlaylist = first.map { HLSPlaylist.looksLikePlaylist(bytes: $0.readableBytesView) } ?? false
                isMPD = !isPlaylist && first.map { DASHManifestRewriter.looksLikeMPD(bytes: $0.readableBytesView) } ?? false
            }
        }

        if isPlaylist || isMPD {
            var body = first ?? ByteBuffer()
            let until = upstream.started + .nanoseconds(transferDeadline.nanoseconds)
            while let chunk = try await iterator.next() {
                bytes += Int64(chunk.readableBytes)
                guard ContinuousClock.now < until else {
                    // A playlist that crawls in (a byte a second never trips the read timeout).
                    note = "playlist-deadline"
                    let error = PlaybackError(kind: .timeout, message: "The playlist did not arrive whole within \(transferDeadline.nanoseconds / 1_000_000_000) s.",
                                              uri: upstream.url.absoluteString)
                    report(id, error)
                    try await simple(.gatewayTimeout, error.message + "\n", head: head, outbound: outbound)
                    return false
                }
                guard body.readableBytes + chunk.readableBytes <= maximumPlaylistBytes else {
                    note = "playlist-too-large"
                    let error = PlaybackError(kind: .invalidPlaylist, message: "The playlist is larger than \(maximumPlaylistBytes) bytes.",
                                              uri: upstream.url.absoluteString)
                    report(id, error)
                    try await simple(.badGateway, error.message + "\n", head: head, outbound: outbound)
                    return head.isKeepAlive
                }
                var c = chunk
                body.writeBuffer(&c)
            }
            let text = String(decoding: body.readableBytesView, as: UTF8.self)
            if isMPD {
                do {
                    // A live item's window, read from the MPD as served (`DASHLiveWindow`), on
                    // the server's clock (`DASHClock`); a number out of bounds refuses it first.
                    try DASHManifestRewriter.check(text)
                    if let live = item.live { await measureClock(text, base: upstream.url, item: item, id: id, live: live) }
                    let steered = item.live?.serveMPD(text)
                    let output = try rewriteMPD(text, base: upstream.url, id: id, manifest: resourceNumber, presentationDelay: steered?.delay,
                                                catchup: steered?.catchup, representation: item.representation, clockOffset: item.live?.clockOffset)
                    await renditions.announceMPD(output, item: id)
                    renditions.servedMPD(text, base: upstream.url, item: id)
                    try await writePlaylist(output, head: head, outbound: outbound, contentType: "application/dash+xml")
                } catch let failure as DASHManifestRewriter.Failure {
                    note = "mpd-unreadable"
                    let error = PlaybackError(kind: .invalidPlaylist, message: "The DASH manifest could not be read: \(failure)", uri: upstream.url.absoluteString)
                    report(id, error)
                    try await simple(.badGateway, error.message + "\n", head: head, outbound: outbound)
                }
                return head.isKeepAlive
            }
            return try await servePlaylist(text, base: upstream.url, item: item, id: id, resource: resourceNumber, head: head, outbound: outbound)
        }

        if status == 200, head.method == .GET, item.rewritesPlaylists, WebVTTSegment.isWebVTT(pathExtension: ext, contentType: contentType) {
            return try await relayWebVTT(response, first: first, iterator: &iterator, bytes: &bytes, head: head, outbound: outbound)
        }

        // A bare packed-audio segment (no ID3 timestamp, which hlsdemux2 1.22 needs): the tag
        // RFC 8216 asks for goes first (`PackedAudioTimestamp`). Whole answers only.
        var timestamp: [UInt8]?
        if status == 200, head.method == .GET, resource.kind == .segment, head.headers["Range"].isEmpty,
           let start = packedAudio.start(of: resource.url, item: id) {
            if first == nil, let chunk = try await iterator.next() {
                bytes += Int64(chunk.readableBytes)
                first = chunk
            }
            if let first, PackedAudioTimestamp.isBarePackedAudio(first.readableBytesView) {
                timestamp = PackedAudioTimestamp.tag(start: start)
                note = [note, "id3-timestamp"].compactMap { $0 }.joined(separator: " ")
            }
        }

        // Media and everything else: streamed, one chunk in flight (the write's completion is the
        // backpressure: no more is read from upstream until playbin3 took the last chunk).
        var headers = HTTPHeaders()
        for name in Self.forwardedResponseHeaders {
            for value in response.headers[name] {
                if name == "Content-Length", let timestamp, let length = Int(value) {
                    headers.add(name: name, value: String(length + timestamp.count))
                } else {
                    headers.add(name: name, value: value)
                }
            }
        }
        if !head.isKeepAlive { headers.add(name: "Connection", value: "close") }
        try await outbound.write(.head(HTTPResponseHead(version: head.version, status: response.status, headers: headers)))
        if head.method == .HEAD {
            try await outbound.write(.end(nil))
            return head.isKeepAlive
        }
        do {
            if let timestamp { try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: timestamp)))) }
            if let first { try await outbound.write(.body(.byteBuffer(first))) }
            while let chunk = try await iterator.next() {
                bytes += Int64(chunk.readableBytes)
                try await outbound.write(.body(.byteBuffer(chunk)))
            }
        } catch {
            note = [note, "cancelled"].compactMap { $0 }.joined(separator: " ")
            throw error
        }
        try await outbound.write(.end(nil))
        return head.isKeepAlive
    }

    /// Rewrites a DASH MPD (the item's resource `manifest`) so that everything it resolves to
    /// routes back through the gateway (`DASHManifestRewriter`): its upstream directories become
    /// resources of the item, and `Location` an item resource of its own.
    /// An HLS playlist answered from `text` (fetched from `base`): a master without the variants
    /// that do not answer, told to the app before any reader gets it (its window is then on the
    /// demuxer) and kept for later readers; every playlist rewritten to come back here.
    private func servePlaylist(_ text: String, base: URL, item: GatewayItem, id: GatewayItemID, resource: Int, head: HTTPRequestHead,
                               outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>) async throws -> Bool {
        var text = text
        let isMaster = text.contains("#EXT-X-STREAM-INF")
        if isMaster {
            text = await withoutUnavailableVariants(text, base: base, item: item, id: id, head: head)
            try Task.checkCancellation()  // the reader left: nothing checked is kept for others
            text = HLSRenditionLanguages.separating(text)  // one group's same-language renditions stay apart
        }
        let output = rewrite(text, base: base, item: item, id: id, playlist: resource)
        if isMaster {
            await renditions.announceMaster(output, item: id)
            masters.store(text, base: base, item: id, resource: resource)
        }
        try await writePlaylist(output, head: head, outbound: outbound)
        return head.isKeepAlive
    }

    func rewriteMPD(_ text: String, base: URL, id: GatewayItemID, manifest: Int, presentationDelay: Double? = nil,
                    catchup: (start: Date, end: Date, now: Date)? = nil, representation: String? = nil, clockOffset: Double? = nil) throws -> String {
        let registry = self.registry, baseURL = self.baseURL
        let listed = Mutex(0)
        let output = try DASHManifestRewriter.rewrite(text, base: base, directory: { dir in
            guard let index = registry.resourceIndex(item: id, url: dir, kind: .other, parent: manifest) else { return nil }
            listed.withLock { $0 += 1 }
            return baseURL + registry.directoryPath(item: id, resource: index)
        }, manifest: { url in
            guard let index = registry.resourceIndex(item: id, url: url, kind: nil, parent: manifest) else { return nil }
            listed.withLock { $0 += 1 }
            return baseURL + registry.path(item: id, resource: index, url: url)
        }, presentationDelay: presentationDelay, catchup: catchup, representation: representation, clockOffset: clockOffset)
        registry.playlistRewritten(item: id, index: manifest, listing: listed.withLock { $0 })
        return output
    }

    /// Rewrites a playlist (the item's resource `playlist`) so that every fetchable URI routes back
    /// through the gateway; then the item's table forgets what no playlist lists any more.
    func rewrite(_ text: String, base: URL, item: GatewayItem, id: GatewayItemID, playlist: Int) -> String {
        let registry = self.registry, baseURL = self.baseURL
        let listed = Mutex(0)
        let rewriter = HLSPlaylistRewriter(baseURL: base, appendEndList: item.appendsEndList(), allowsLocalFiles: item.url.isFileURL) { kind, url in
            guard let index = registry.resourceIndex(item: id, url: url, kind: kind, parent: playlist) else { return nil }
            listed.withLock { $0 += 1 }
            return baseURL + registry.path(item: id, resource: index, url: url)
        }
        let edited = item.live.map { $0.serve(text, closing: item.appendsEndList()) } ?? text
        packedAudio.served(edited, base: base, item: id, playlist: playlist)
        let output = rewriter.rewrite(edited).text
        registry.playlistRewritten(item: id, index: playlist, listing: listed.withLock { $0 })
        return output
    }

    /// A master without the variants whose media playlists do not answer (`HLSMasterFilter`):
    /// every variant is asked for at once, each within 5 s (head and body), with the item's
    /// credentials as any request of it; one that fails is left out and told to the variant
    /// handler (the router says so on stderr).
    private func withoutUnavailableVariants(_ text: String, base: URL, item: GatewayItem, id: GatewayItemID, head: HTTPRequestHead) async -> String {
        // Only what the rewriter would route: http(s), and files for a local item only (a network
        // master naming a FIFO would otherwise block the check, and read a local file).
        let variants = HLSMasterFilter.variantURLs(in: text, base: base).filter { ["http", "https"].contains($0.scheme?.lowercased()) || item.url.isFileURL }
        guard variants.count > 1 else { return text }
        var probe = HTTPRequestHead(version: head.version, method: .GET, uri: head.uri)
        for name in ["User-Agent", "Accept"] { for value in head.headers[name] { probe.headers.add(name: name, value: value) } }
        let request = probe
        let failed = await withTaskGroup(of: (URL, PlaybackError?).self) { group -> [(URL, PlaybackError)] in
            for url in Set(variants) {
                group.addTask {
                    guard let index = self.registry.resourceIndex(item: id, url: url, kind: .variant),
                          let (_, resource) = self.registry.resource(item: id, index: index) else { return (url, nil) }
                    switch await self.fetch(item: item, id: id, resource: resource, head: request, deadline: .now() + .seconds(5)) {
                    case .failure(let f): return (url, f.error)
                    case .success(let u):
                        let status = Int(u.response.status.code)
                        var body = ByteBuffer()
                        let until = ContinuousClock.now + .seconds(5)
                        do {
                            for try await chunk in u.response.body {
                                var c = chunk
                                body.writeBuffer(&c)
                                // An endless or crawling body is no playlist to wait for.
                                guard body.readableBytes <= self.maximumPlaylistBytes, ContinuousClock.now < until else {
                                    return (url, PlaybackError(kind: .timeout, message: "The variant's playlist did not arrive whole within 5 s.",
                                                               uri: url.absoluteString))
                                }
                            }
                        } catch {
                            return (url, PlaybackError(kind: .network, message: "The variant's playlist was cut short: \(error)", uri: url.absoluteString))
                        }
                        self.logLine(u.method, u.requestURL, status: status, bytes: Int64(body.readableBytes), started: u.started, note: "variant-check")
                        guard status < 400 else { return (url, ErrorMapper.http(status: status, uri: url.absoluteString)) }
                        let text = String(decoding: body.readableBytesView, as: UTF8.self)
                        if status == 200, body.readableBytes <= self.maximumPlaylistBytes, HLSPlaylist.looksLikePlaylist(text[...]) {
                            // The player asks for it next: it is handed over, not fetched again.
                            self.masters.store(text, base: u.url, item: id, resource: index, once: true)
                        }
                        return (url, nil)
                    }
                }
            }
            var failed: [(URL, PlaybackError)] = []
            for await (url, error) in group { if let error { failed.append((url, error)) } }
            return failed
        }
        // A check the player's leaving cut short (`Transfers`) says nothing of the variants.
        guard !failed.isEmpty, !Task.isCancelled else { return text }
        for (url, error) in failed {
            variantHandler.withLock { $0 }?(id, url, error)
        }
        return HLSMasterFilter.removing(Set(failed.map(\.0)), from: text, base: base)
    }

    private func writePlaylist(_ output: String, head: HTTPRequestHead, outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>,
                               contentType: String = "application/vnd.apple.mpegurl") async throws {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: contentType)
        headers.add(name: "Content-Length", value: String(output.utf8.count))
        headers.add(name: "Cache-Control", value: "no-cache")
        if !head.isKeepAlive { headers.add(name: "Connection", value: "close") }
        try await outbound.write(.head(HTTPResponseHead(version: head.version, status: .ok, headers: headers)))
        try await outbound.write(.body(.byteBuffer(ByteBuffer(string: output))))
        try await outbound.write(.end(nil))
    }

    // MARK: Helpers

    private func simple(_ status: HTTPResponseStatus, _ text: String, head: HTTPRequestHead,
                        outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>) async throws {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "text/plain; charset=utf-8")
        headers.add(name: "Content-Length", value: String(text.utf8.count))
        if !head.isKeepAlive { headers.add(name: "Connection", value: "close") }
        try await outbound.write(.head(HTTPResponseHead(version: head.version, status: status, headers: headers)))
        if head.method != .HEAD { try await outbound.write(.body(.byteBuffer(ByteBuffer(string: text)))) }
        try await outbound.write(.end(nil))
    }

    func drain(_ response: HTTPClientResponse) async -> Int64 {
        var total: Int64 = 0
        do {
            for try await chunk in response.body {
                total += Int64(chunk.readableBytes)
                if total > 1 << 20 { break }
            }
        } catch {}
        return total
    }

    private func report(_ id: GatewayItemID, _ error: PlaybackError) {
        errorHandler.withLock { $0 }?(id, error)
    }

    func logLine(_ method: String, _ url: String, status: Int?, bytes: Int64, started: ContinuousClock.Instant, note: String?) {
        guard let log else { return }
        let elapsed = ContinuousClock.now - started
        let ms = Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
        log.record(method: method, url: url, status: status, bytes: bytes, milliseconds: ms, note: note)
    }
}
