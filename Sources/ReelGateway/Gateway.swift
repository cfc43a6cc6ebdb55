import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import ReelCore
import Synchronization

/// Reel's loopback gateway for protected streams (see docs/ARCHITECTURE.md, "The gateway").
///
/// An HTTP server on 127.0.0.1 (a random port) that playbin3 talks to instead of the upstream
/// server. For every request it fetches the upstream resource with the item's headers and token,
/// streams the body through with backpressure, passes Range through, follows redirects itself
/// (dropping credentials when the host changes unless allow-listed) and rewrites every URI of
/// every playlist so that the next requests come back through it. It runs on its own NIO event
/// loop threads: nothing here touches the UI thread.
///
///     let gateway = try await Gateway.start(.init(httpLogPath: "/tmp/http.log"))
///     gateway.setErrorHandler { id, error in … }            // 401/403 after one token refresh, …
///     let (id, url) = gateway.register(GatewayItem(url: upstream, headers: [h]))
///     player.load(url.absoluteString)
///     …
///     gateway.unregister(id); await gateway.shutdown()
public final class Gateway: Sendable {
    public struct Configuration: Sendable {
        /// `--http-log FILE`: one line per upstream request (see `HTTPRequestLog`).
        public var httpLogPath: String?
        /// Seconds to wait for an upstream connection.
        public var connectTimeout: Double
        /// Seconds an upstream response may stay silent.
        public var readTimeout: Double
        /// Seconds for an upstream response's head, and for the whole of a playlist
        /// (a body that crawls in is abandoned then; media bodies stream as long as the player
        /// reads them, and stop when it goes).
        public var transferDeadline: Double
        /// Playlists larger than this are refused (they are rewritten in memory; media never is).
        public var maximumPlaylistBytes: Int
        /// Event loop threads (the server and the upstream client share them).
        public var threads: Int
        /// `--ca-file FILE`: PEM certificates trusted for https upstreams in addition to the
        /// system's (a private CA, a test lab's self-signed server).
        public var trustedCertificatesPath: String?
        /// Seconds a client connection may take to send a complete request head.
        public var headerTimeout: Double
        /// Seconds a kept-alive client connection may wait for its next request.
        public var idleTimeout: Double
        /// Open client connections at most; over it the longest-idle one is closed.
        public var maximumConnections: Int
        /// Serve only connections opened by this process (see `LoopbackPeer`).
        public var ownProcessOnly: Bool

        /// The network, the network recorded, or a recording replayed.
        public var upstream: UpstreamMode

        public init(httpLogPath: String? = nil, connectTimeout: Double = 10, readTimeout: Double = 30,
                    maximumPlaylistBytes: Int = 16 << 20, threads: Int = 1, trustedCertificatesPath: String? = nil,
                    headerTimeout: Double = 10, idleTimeout: Double = 30, maximumConnections: Int = 64, ownProcessOnly: Bool = true,
                    transferDeadline: Double = 30, upstream: UpstreamMode = .network) {
            self.upstream = upstream
            self.transferDeadline = transferDeadline
            self.trustedCertificatesPath = trustedCertificatesPath
            self.headerTimeout = headerTimeout
            self.idleTimeout = idleTimeout
            self.maximumConnections = maximumConnections
            self.ownProcessOnly = ownProcessOnly
            self.httpLogPath = httpLogPath
            self.connectTimeout = connectTimeout
            self.readTimeout = readTimeout
            self.maximumPlaylistBytes = maximumPlaylistBytes
            self.threads = threads
        }
    }

    /// Called (on a gateway thread) when an item fails upstream in a way playback cannot get
    /// past: 401/403 after one token refresh (`.notAuthorized`), other HTTP errors, network
    /// errors. The error's URI and text are redacted.
    public typealias ErrorHandler = @Sendable (GatewayItemID, PlaybackError) -> Void
    /// A variant of a master that the gateway left out because its playlist failed (the URL, why).
    public typealias VariantHandler = @Sendable (GatewayItemID, URL, PlaybackError) -> Void
    /// The player began fetching the media of another rendition: the rendition's URI as told to
    /// the app (an HLS variant playlist's gateway URL as the rewritten master lists it, a DASH
    /// Representation's `@id`).
    public typealias VariantFetchedHandler = @Sendable (GatewayItemID, String) -> Void

    /// The port the gateway listens on (127.0.0.1).
    public let port: Int
    /// `http://127.0.0.1:<port>`.
    public let baseURL: String

    private let handler: GatewayRequestHandler
    private let group: MultiThreadedEventLoopGroup
    private let client: HTTPClient
    private let server: NIOAsyncChannel<NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, Never>
    private let acceptTask: Task<Void, Never>
    private let stopped = Mutex(false)

    private init(port: Int, handler: GatewayRequestHandler, group: MultiThreadedEventLoopGroup, client: HTTPClient,
                 server: NIOAsyncChannel<NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, Never>, acceptTask: Task<Void, Never>) {
        self.port = port
        self.baseURL = "http://127.0.0.1:\(port)"
        self.handler = handler
        self.group = group
        self.client = client
        self.server = server
        self.acceptTask = acceptTask
        GatewayAddresses.add(addressPrefix)
    }

    /// What every URL of this gateway starts with (`GatewayAddresses`).
    var addressPrefix: String { baseURL + "/" + handler.registry.key + "/" }

    /// Starts a gateway on 127.0.0.1 with a random port.
    public static func start(_ configuration: Configuration = Configuration()) async throws -> Gateway {
        let log = try configuration.httpLogPath.map { try HTTPRequestLog(path: $0) }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: max(1, configuration.threads))
        var clientConfiguration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: .milliseconds(Int64(configuration.connectTimeout * 1000)),
                           read: .milliseconds(Int64(configuration.readTimeout * 1000))),
            decompression: .disabled)
        clientConfiguration.connectionPool = .init(idleTimeout: .seconds(30))
        // A refused connection or a failed TLS handshake is reported at once, not retried until
        // the connect timeout: the queue's own RetryPolicy retries items, and an untrusted
        // certificate will not become trusted by trying again.
        clientConfiguration.connectionPool.retryConnectionEstablishment = false
        var tls = TLSConfiguration.makeClientConfiguration()
        if let path = configuration.trustedCertificatesPath { tls.additionalTrustRoots = [.file(path)] }
        clientConfiguration.tlsConfiguration = tls
        let client = HTTPClient(eventLoopGroup: group, configuration: clientConfiguration)
        let server: NIOAsyncChannel<NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, Never>
        let book = ConnectionBook()
        let unclaimed = UnclaimedConnections()
        let headerTimeout = TimeAmount.milliseconds(Int64(BoundedNumber.milliseconds(configuration.headerTimeout)))
        let idleTimeout = TimeAmount.milliseconds(Int64(BoundedNumber.milliseconds(configuration.idleTimeout)))
        do {
            server = try await ServerBootstrap(group: group)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
                .bind(host: "127.0.0.1", port: 0) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                        try channel.pipeline.syncOperations.addHandler(
                            ConnectionDeadlineHandler(headerTimeout: headerTimeout, idleTimeout: idleTimeout, book: book))
                        let wrapped = try NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>(wrappingChannelSynchronously: channel)
                        unclaimed.add(wrapped)
                        return wrapped
                    }
                }
        } catch {
            try? await client.shutdown()
            try? await group.shutdownGracefully()
            log?.close()
            throw error
        }
        let port = server.channel.localAddress?.port ?? 0
        let handler = GatewayRequestHandler(
            baseURL: "http://127.0.0.1:\(port)", client: client, upstream: Self.upstream(configuration.upstream, client: client), log: log, maximumPlaylistBytes: configuration.maximumPlaylistBytes,
            connections: book, unclaimed: unclaimed, maximumConnections: max(1, configuration.maximumConnections),
            serverPort: configuration.ownProcessOnly ? port : nil,
            transferDeadline: .milliseconds(Int64(BoundedNumber.milliseconds(configuration.transferDeadline))))
        let acceptTask = Task { await handler.acceptConnections(server) }
        return Gateway(port: port, handler: handler, group: group, client: client, server: server, acceptTask: acceptTask)
    }

    static func upstream(_ mode: UpstreamMode, client: HTTPClient) -> any GatewayUpstream {
        switch mode {
        case .network: NetworkUpstream(client: client)
        case .record(let recorder): RecordingUpstream(network: NetworkUpstream(client: client), recorder: recorder)
        case .replay(let origin): origin
        }
    }

    /// `start` for synchronous callers (the GLib main thread). Blocks until the port is bound.
    /// Never call it from a Swift concurrency thread: it waits for a task on that same pool.
    public static func startBlocking(_ configuration: Configuration = Configuration()) throws -> Gateway {
        let box = BlockingBox<Result<Gateway, any Error>>()
        Task.detached {
            do { box.put(.success(try await Gateway.start(configuration))) } catch { box.put(.failure(error)) }
        }
        return try box.take().get()
    }

    /// Registers a protected item; playbin3 gets the returned URL instead of `item.url`.
    public func register(_ item: GatewayItem) -> (id: GatewayItemID, url: URL) {
        let id = handler.registry.register(item)
        let path = handler.registry.path(item: id, resource: 0, url: item.url)
        return (id, URL(string: baseURL + path)!)
    }

    /// How many upstream resources the gateway holds for an item (bounded per item).
    public func resourceCount(_ id: GatewayItemID) -> Int? { handler.registry.resourceCount(id) }

    /// Routes `text` as the item's own playlist (resource 0) as a GET through the gateway would
    /// (`PlaylistRoutes`): for benchmarks and tests of the registry's cost.
    public func rewritePlaylist(_ text: String, of id: GatewayItemID) -> String? {
        guard let (item, resource) = handler.registry.resource(item: id, index: 0) else { return nil }
        return PlaylistRoutes(registry: handler.registry, baseURL: handler.baseURL)
            .rewrite(text, RepairContext(item: item, id: id, resource: 0, base: resource.url))
    }

    /// The lowest-bandwidth I-frame playlist its HLS master lists, as a gateway URL (with the
    /// item's credentials, as any of its requests): what seek-bar previews decode, a keyframe an
    /// entry. nil until the master was served, and for a master without one.
    public func iFramePlaylist(_ id: GatewayItemID) -> URL? { handler.renditions.iFramePlaylist(id).flatMap(URL.init(string:)) }

    /// Forgets an item: its gateway URLs answer 404 from now on.
    public func unregister(_ id: GatewayItemID) {
        handler.registry.unregister(id)
        handler.renditions.forget(id)
        handler.packedAudio.forget(id)
        handler.transfers.release(id)  // its answers under way stop, and their upstream requests
    }

    /// Requests being answered now (each stops when its client goes or its item is released).
    public var activeTransferCount: Int { handler.transfers.count }

    /// Client connections open now (playbin3's, and any other local process's).
    public var connectionCount: Int { handler.connections.count }

    /// Connections refused because they did not come from this process.
    public var refusedConnectionCount: Int { handler.refusedConnections.withLock { $0 } }

    /// The number of registered items.
    public var itemCount: Int { handler.registry.itemCount }

    public func setErrorHandler(_ handler: ErrorHandler?) { self.handler.errorHandler.withLock { $0 = handler } }

    /// Called (on a gateway thread) for each variant left out of a master it served.
    public func setVariantHandler(_ handler: VariantHandler?) { self.handler.variantHandler.withLock { $0 = handler } }

    /// Called (on a gateway thread) when an item's media requests move to another variant: the
    /// first segment (or map, or part) of each run of one variant's media.
    public func setVariantFetchedHandler(_ handler: VariantFetchedHandler?) { self.handler.variantFetchedHandler.withLock { $0 = handler } }

    /// Called (on a gateway thread) with an item's renditions the first time its master (HLS) or
    /// MPD (DASH, two or more video Representations) is served, as the player will fetch them; the
    /// answer waits until the handler calls `done` (at most 3 s), so what the app puts on the
    /// demuxer in between is in force for its first choice.
    public typealias RenditionsHandler = @Sendable (GatewayItemID, [HLSVariant], _ done: @escaping @Sendable () -> Void) -> Void
    public func setRenditionsHandler(_ handler: RenditionsHandler?) { self.handler.renditions.handler.withLock { $0 = handler } }

    /// Upstream requests made so far (every attempt: redirects and retries count).
    public var upstreamRequestCount: Int { handler.upstreamRequests.withLock { $0 } }

    /// Stops listening, cancels transfers, releases the threads. Idempotent.
    public func shutdown() async {
        guard stopped.withLock({ s in defer { s = true }; return !s }) else { return }
        GatewayAddresses.remove(addressPrefix)
        // Order matters: every channel must be closed, and the accept task done, while the event
        // loops still run (NIO drops work scheduled on a stopped loop, and an await on it never ends).
        // Connections the server made but the accept loop has not claimed are closed here (see
        // UnclaimedConnections), after the accept loop stops (cancelled, it may drop them).
        handler.closeConnections()
        acceptTask.cancel()
        try? await server.channel.close()
        handler.closeConnections()
        await handler.unclaimed.closeAll()
        try? await client.shutdown()
        let acceptTask = self.acceptTask
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let once = Mutex(false)
            let resume: @Sendable () -> Void = {
                if once.withLock({ done in defer { done = true }; return !done }) { continuation.resume() }
            }
            Task { await acceptTask.value; resume() }
            Task { try? await Task.sleep(for: .seconds(5)); resume() }
        }
        try? await group.shutdownGracefully()
        handler.log?.close()
    }

    /// `shutdown` for synchronous callers (not from a Swift concurrency thread, as `startBlocking`).
    public func shutdownBlocking() {
        let box = BlockingBox<Void>()
        Task.detached {
            await self.shutdown()
            box.put(())
        }
        box.take()
    }
}
