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
    /// Where upstream requests go (`GatewayUpstream`): the gateway's HTTP client, recorded or replayed.
    let upstream: any GatewayUpstream
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

    init(baseURL: String, client: HTTPClient, upstream: (any GatewayUpstream)? = nil, log: HTTPRequestLog?, maximumPlaylistBytes: Int,
         connections: ConnectionBook = ConnectionBook(), unclaimed: UnclaimedConnections = UnclaimedConnections(),
         maximumConnections: Int = 64, serverPort: Int? = nil, transferDeadline: TimeAmount = .seconds(30)) {
        self.transferDeadline = transferDeadline
        self.baseURL = baseURL
        self.unclaimed = unclaimed
        self.upstream = upstream ?? NetworkUpstream(client: client)
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
                let context = RepairContext(item: item, id: id, resource: index, base: cached.base, request: head)
                try await writePlaylist(try await repairs.servedPlaylist.apply(cached.text, context), head: head, outbound: outbound)
                return head.isKeepAlive
            }
        }
        defer { if leads { masters.finish(item: id, resource: index) } }
        // Fetched by Reel a moment ago (`GatewayItem.prefetched`): a master or a closed playlist
        // is not asked for again (a live one is: its window has moved since).
        if head.method == .GET, index == 0, let prefetched = item.prefetched?.take(),
           prefetched.text.contains("#EXT-X-STREAM-INF") || prefetched.text.contains("#EXT-X-ENDLIST") {
            return try await servePlaylist(prefetched.text, RepairContext(item: item, id: id, resource: index, base: prefetched.base, request: head),
                                           outbound: outbound)
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

    // MARK: Relaying

    private func relay(_ upstream: Upstream, item: GatewayItem, id: GatewayItemID, resource: GatewayRegistry.Resource, number resourceNumber: Int,
                       head: HTTPRequestHead, outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>) async throws -> Bool {
        let response = upstream.response
        let status = Int(response.status.code)
        var context = RepairContext(item: item, id: id, resource: resourceNumber, base: upstream.url, request: head)
        context.listed = resource.url
        if LiveSegmentGaps.answersAsGap(status: status, kind: resource.kind, context) {
            let drained = await drain(response)
            logLine(upstream.method, upstream.requestURL, status: status, bytes: drained, started: upstream.started, note: "live-gap")
            try await write(.ok, headers: ["Content-Type": response.headers["Content-Type"].first ?? "video/mp2t"], body: [], head: head, outbound: outbound)
            return head.isKeepAlive
        }
        if status >= 400 && status != 416 {
            // Not found, server errors: passed on (playbin3 reports them too), and told to the app.
            report(id, ErrorMapper.http(status: status, uri: upstream.url.absoluteString))
        }
        var body = UpstreamBody(response.body, until: upstream.started + .nanoseconds(transferDeadline.nanoseconds))
        var note = upstream.note
        defer { logLine(upstream.method, upstream.requestURL, status: status, bytes: body.bytes, started: upstream.started, note: note) }
        let contentType = response.headers["Content-Type"].first?.lowercased() ?? ""
        let whole = status == 200 && head.method == .GET
        var form = AnswerForm.media
        if whole && item.rewritesPlaylists && resource.kind?.isMediaData != true && resource.kind != .key {
            if let told = AnswerForm.of(contentType: contentType, pathExtension: upstream.url.pathExtension, kind: resource.kind) {
                form = told
            } else {
                form = AnswerForm.sniffed(try await body.first())
            }
        }
        if form != .media {
            let text: String
            switch try await body.whole(within: maximumPlaylistBytes) {
            case .whole(let bytes): text = String(decoding: bytes, as: UTF8.self)
            case .tooLarge:
                note = "playlist-too-large"
                return try await fail(.badGateway, PlaybackError(kind: .invalidPlaylist, message: "The playlist is larger than \(maximumPlaylistBytes) bytes.",
                                                                  uri: upstream.url.absoluteString), id: id, head: head, outbound: outbound)
            case .late:
                // A playlist that crawls in (a byte a second never trips the read timeout).
                note = "playlist-deadline"
                _ = try await fail(.gatewayTimeout, PlaybackError(kind: .timeout, message: "The playlist did not arrive whole within \(transferDeadline.nanoseconds / 1_000_000_000) s.",
                                                                   uri: upstream.url.absoluteString), id: id, head: head, outbound: outbound)
                return false
            }
            guard form == .manifest else { return try await servePlaylist(text, context, outbound: outbound) }
            do {
                let output = try await repairs.manifest.apply(text, context)
                await renditions.announceMPD(output, item: id)
                renditions.servedMPD(text, base: upstream.url, item: id)
                try await writePlaylist(output, head: head, outbound: outbound, contentType: "application/dash+xml")
                return head.isKeepAlive
            } catch let failure as DASHManifestRewriter.Failure {
                note = "mpd-unreadable"
                return try await fail(.badGateway, PlaybackError(kind: .invalidPlaylist, message: "The DASH manifest could not be read: \(failure)",
                                                                  uri: upstream.url.absoluteString), id: id, head: head, outbound: outbound)
            }
        }
        // Media and everything else: streamed, one chunk in flight (the write's completion is the
        // backpressure: no more is read from upstream until playbin3 took the last chunk), after
        // the first media repair that applies had its look.
        var headers = Self.forwardedResponseHeaders.flatMap { name in response.headers[name].map { (name, $0) } }
        var prefix: [UInt8]?
        if whole, let repair = repairs.media.first(where: { $0.applies(to: context, kind: resource.kind, contentType: contentType) }) {
            let original = repair.wholeBody ? try await body.whole(within: maximumPlaylistBytes).bytes : try await body.first().map { Array($0.readableBytesView) }
            if let original, let repaired = repair.repair(original, context) {
                note = [note, repair.name].compactMap { $0 }.joined(separator: " ")
                headers = headers.map { $0.0 == "Content-Length" ? ($0.0, Int($0.1).map { String($0 + repaired.count - original.count) } ?? $0.1) : $0 }
                prefix = repaired
                body.dropPending()
            }
        }
        if !head.isKeepAlive { headers.append(("Connection", "close")) }
        try await outbound.write(.head(HTTPResponseHead(version: head.version, status: response.status, headers: HTTPHeaders(headers))))
        if head.method == .HEAD {
            try await outbound.write(.end(nil))
            return head.isKeepAlive
        }
        do {
            if let prefix { try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: prefix)))) }
            while let chunk = try await body.next() { try await outbound.write(.body(.byteBuffer(chunk))) }
        } catch {
            note = [note, "cancelled"].compactMap { $0 }.joined(separator: " ")
            throw error
        }
        try await outbound.write(.end(nil))
        return head.isKeepAlive
    }

    /// An HLS playlist answered from `text` (fetched from the context's base): a master without
    /// the variants that do not answer, told to the app before any reader gets it (its window is
    /// then on the demuxer) and kept for later readers; every playlist repaired as served.
    func servePlaylist(_ text: String, _ context: RepairContext, outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>) async throws -> Bool {
        let isMaster = text.contains("#EXT-X-STREAM-INF")
        let text = isMaster ? try await repairs.fetchedMaster.apply(text, context) : text
        let output = try await repairs.servedPlaylist.apply(text, context)
        if isMaster {
            await renditions.announceMaster(output, item: context.id)
            masters.store(text, base: context.base, item: context.id, resource: context.resource)
        }
        try await writePlaylist(output, head: context.request, outbound: outbound)
        return context.request.isKeepAlive
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

    /// A failure as the answer, told to the app.
    private func fail(_ status: HTTPResponseStatus, _ error: PlaybackError, id: GatewayItemID, head: HTTPRequestHead,
                      outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>) async throws -> Bool {
        report(id, error)
        try await simple(status, error.message + "\n", head: head, outbound: outbound)
        return head.isKeepAlive
    }

    private func write(_ status: HTTPResponseStatus, headers fields: KeyValuePairs<String, String>, body: [UInt8], head: HTTPRequestHead,
                       outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>) async throws {
        var headers = HTTPHeaders()
        for (name, value) in fields { headers.add(name: name, value: value) }
        headers.add(name: "Content-Length", value: String(body.count))
        if !head.isKeepAlive { headers.add(name: "Connection", value: "close") }
        try await outbound.write(.head(HTTPResponseHead(version: head.version, status: status, headers: headers)))
        if head.method != .HEAD, !body.isEmpty { try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: body)))) }
        try await outbound.write(.end(nil))
    }

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
