import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// A real HTTP/1.1 server on a loopback address for tests (NIO). It serves routes from memory
/// or disk, records every request with its headers, answers 401 when a required header or query
/// token is missing or wrong (and can rotate the token it expects), redirects, serves Range
/// requests (206/416), and serves a live sliding-window playlist that reveals pre-made segments
/// by wall clock.
///
/// Use 127.0.0.1 and 127.0.0.2 (two servers) when a test needs two distinct hosts.
public final class HTTPFixtureServer: Sendable {
    public struct RecordedRequest: Sendable, CustomStringConvertible {
        public var method: String
        /// Path and query as requested.
        public var uri: String
        public var headers: [(name: String, value: String)]
        public var status: Int
        public var time: Date

        public var path: String { String(uri.split(separator: "?", maxSplits: 1).first ?? "") }
        public func header(_ name: String) -> String? { headers.first { $0.name.lowercased() == name.lowercased() }?.value }
        public var description: String { "\(method) \(uri) → \(status)" }
    }

    /// A live playlist over pre-made segments: segment i becomes available when the clock passes
    /// `start + (sum of the durations before it) − preroll`; the playlist shows the newest
    /// `window` available segments. After the last one it adds `#EXT-X-ENDLIST` when `endsAtLast`.
    public struct LivePlaylist: Sendable {
        public var segments: [(uri: String, duration: Double)]
        public var window: Int
        public var targetDuration: Int
        public var start: Date
        /// Seconds of segments available at `start` (so that a player can begin at once).
        public var preroll: Double
        public var endsAtLast: Bool
        /// Extra tag lines after the header (e.g. an `#EXT-X-KEY`).
        public var extraTags: [String]

        public init(segments: [(uri: String, duration: Double)], window: Int = 3, targetDuration: Int = 2, start: Date = Date(),
                    preroll: Double = 4, endsAtLast: Bool = true, extraTags: [String] = []) {
            self.segments = segments
            self.window = window
            self.targetDuration = targetDuration
            self.start = start
            self.preroll = preroll
            self.endsAtLast = endsAtLast
            self.extraTags = extraTags
        }

        public func text(at now: Date) -> String {
            let elapsed = now.timeIntervalSince(start) + preroll
            var available = 0, cumulative = 0.0
            for s in segments {
                if cumulative + s.duration <= elapsed + 0.001 { available += 1; cumulative += s.duration } else { break }
            }
            available = max(1, available)
            let first = max(0, available - window)
            var lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:\(targetDuration)", "#EXT-X-MEDIA-SEQUENCE:\(first)"]
            lines += extraTags
            for s in segments[first..<available] {
                lines.append(String(format: "#EXTINF:%.3f,", s.duration))
                lines.append(s.uri)
            }
            if endsAtLast && available == segments.count { lines.append("#EXT-X-ENDLIST") }
            return lines.joined(separator: "\n") + "\n"
        }
    }

    public enum Route: Sendable {
        case data(Data, contentType: String)
        case file(URL, contentType: String)
        case redirect(to: String, status: Int)
        case status(Int)
        case live(LivePlaylist)
    }

    struct State {
        var routes: [String: Route] = [:]
        var requests: [RecordedRequest] = []
        var requiredHeader: (name: String, value: String)?
        var requiredQueryToken: String?
        /// After this many authorized requests, the expected token becomes `next`.
        var rotation: (after: Int, next: String)?
        var authorized = 0
        var exempt: Set<String> = []
    }

    public let host: String
    public let port: Int
    let state = Mutex(State())
    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel

    /// Binds to `host` (a loopback address) on a random port and starts serving.
    public init(host: String = "127.0.0.1") throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let box = HTTPFixtureServerBox()
        let channel = try ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(HTTPFixtureHandler(server: box))
                }
            }
            .bind(host: host, port: 0).wait()
        self.host = host
        self.port = channel.localAddress?.port ?? 0
        self.group = group
        self.channel = channel
        box.server.withLock { $0 = self }
    }

    public func shutdown() {
        try? channel.close().wait()
        try? group.syncShutdownGracefully()
    }

    /// `http://host:port`.
    public var baseURL: String { "http://\(host):\(port)" }
    public func url(_ path: String) -> URL { URL(string: baseURL + (path.hasPrefix("/") ? path : "/" + path))! }

    // MARK: Configuration

    public func serve(_ path: String, _ route: Route) { state.withLock { $0.routes[path] = route } }

    /// Serves every file under `directory` at `prefix/<relative path>`.
    public func serveDirectory(_ directory: URL, at prefix: String) {
        let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        let root = directory.standardizedFileURL.path
        for file in files where !file.hasDirectoryPath {
            let relative = String(file.standardizedFileURL.path.dropFirst(root.count))
            serve(prefix + relative, .file(file, contentType: HTTPFixtureServer.contentType(for: file.pathExtension)))
        }
    }

    /// Every request must carry this header (nil: no requirement); others get 401.
    public func requireHeader(_ name: String, _ value: String?) {
        state.withLock { $0.requiredHeader = value.map { (name, $0) } }
    }

    /// Every request must carry `Authorization=<token>` in its query (nil: no requirement).
    public func requireQueryToken(_ token: String?) { state.withLock { $0.requiredQueryToken = token } }

    /// After `count` more authorized requests, expect `token` instead (header and/or query).
    public func rotateToken(afterRequests count: Int, to token: String) {
        state.withLock { $0.rotation = ($0.authorized + count, token) }
    }

    /// Paths served without the auth check (e.g. a redirect target on purpose).
    public func exemptFromAuth(_ path: String) { state.withLock { _ = $0.exempt.insert(path) } }

    public var requests: [RecordedRequest] { state.withLock { $0.requests } }
    public func clearRequests() { state.withLock { $0.requests.removeAll() } }

    static func contentType(for ext: String) -> String {
        switch ext.lowercased() {
        case "m3u8": "application/vnd.apple.mpegurl"
        case "ts": "video/mp2t"
        case "mp4", "m4s": "video/mp4"
        case "key", "bin": "application/octet-stream"
        default: "application/octet-stream"
        }
    }

    // MARK: Answering

    struct Answer {
        var status: HTTPResponseStatus
        var headers: HTTPHeaders
        var body: ByteBuffer?
    }

    func answer(_ head: HTTPRequestHead) -> Answer {
        let path = String(head.uri.split(separator: "?", maxSplits: 1).first ?? "")
        let query = head.uri.contains("?") ? String(head.uri.split(separator: "?", maxSplits: 1)[1]) : ""
        let result: Answer = state.withLock { s in
            // Authorization.
            if !s.exempt.contains(path) {
                var ok = true
                if let required = s.requiredHeader, head.headers[required.name].first != required.value { ok = false }
                if let token = s.requiredQueryToken {
                    let values = query.split(separator: "&").compactMap { pair -> String? in
                        let kv = pair.split(separator: "=", maxSplits: 1).map(String.init)
                        return kv.first == "Authorization" ? (kv.count == 2 ? (kv[1].removingPercentEncoding ?? kv[1]) : "") : nil
                    }
                    if values != [token] { ok = false }
                }
                if !ok { return Answer(status: .unauthorized, headers: ["Content-Type": "text/plain", "WWW-Authenticate": "Bearer"], body: ByteBuffer(string: "unauthorized\n")) }
                s.authorized += 1
                if let rotation = s.rotation, s.authorized >= rotation.after {
                    if s.requiredHeader != nil { s.requiredHeader!.value = rotation.next }
                    if s.requiredQueryToken != nil { s.requiredQueryToken = rotation.next }
                    s.rotation = nil
                }
            }
            guard let route = s.routes[path] else {
                return Answer(status: .notFound, headers: ["Content-Type": "text/plain"], body: ByteBuffer(string: "not found\n"))
            }
            switch route {
            case .status(let code):
                return Answer(status: HTTPResponseStatus(statusCode: code), headers: ["Content-Type": "text/plain"], body: ByteBuffer(string: "status \(code)\n"))
            case .redirect(let target, let code):
                return Answer(status: HTTPResponseStatus(statusCode: code), headers: ["Location": target], body: nil)
            case .live(let live):
                return Answer(status: .ok, headers: ["Content-Type": "application/vnd.apple.mpegurl", "Cache-Control": "no-cache"],
                              body: ByteBuffer(string: live.text(at: Date())))
            case .data(let data, let type):
                return HTTPFixtureServer.ranged(data, contentType: type, range: head.headers["Range"].first)
            case .file(let url, let type):
                guard let data = try? Data(contentsOf: url) else { return Answer(status: .notFound, headers: [:], body: nil) }
                return HTTPFixtureServer.ranged(data, contentType: type, range: head.headers["Range"].first)
            }
        }
        let headers = head.headers.map { (name: $0.name, value: $0.value) }
        state.withLock {
            $0.requests.append(RecordedRequest(method: head.method.rawValue, uri: head.uri, headers: headers, status: Int(result.status.code), time: Date()))
        }
        return result
    }

    static func ranged(_ data: Data, contentType: String, range: String?) -> Answer {
        var headers: HTTPHeaders = ["Content-Type": contentType, "Accept-Ranges": "bytes"]
        guard let range, range.hasPrefix("bytes="), !range.contains(",") else {
            return Answer(status: .ok, headers: headers, body: ByteBuffer(bytes: data))
        }
        let spec = range.dropFirst(6).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        let size = data.count
        var start: Int, end: Int
        if spec.count == 2, spec[0].isEmpty, let suffix = Int(spec[1]) {
            start = max(0, size - suffix); end = size - 1
        } else if spec.count == 2, let s = Int(spec[0]) {
            start = s; end = spec[1].isEmpty ? size - 1 : min(size - 1, Int(spec[1]) ?? size - 1)
        } else {
            return Answer(status: .ok, headers: headers, body: ByteBuffer(bytes: data))
        }
        guard start < size, start <= end else {
            headers.replaceOrAdd(name: "Content-Range", value: "bytes */\(size)")
            return Answer(status: .rangeNotSatisfiable, headers: headers, body: nil)
        }
        headers.add(name: "Content-Range", value: "bytes \(start)-\(end)/\(size)")
        return Answer(status: .partialContent, headers: headers, body: ByteBuffer(bytes: data[start...end]))
    }
}
