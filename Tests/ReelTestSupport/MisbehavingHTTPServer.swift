import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A raw-socket HTTP/1.1 server on 127.0.0.1 that misbehaves on purpose, for bad-input tests.
/// POSIX sockets, one accept thread and at most `maxConnections` connection threads (further
/// connections are closed at once). Every wait is bounded; `stop()` ends everything.
public final class MisbehavingHTTPServer: Sendable {
    public enum Behavior: Sendable {
        /// Reads the request, then resets the connection (RST: SO_LINGER 0).
        case reset
        /// Reads the request and answers nothing, holding the connection for at most `seconds`.
        case stall(seconds: Double)
        /// Sends bytes that are not HTTP at all, then closes.
        case garbage
        /// A valid 200 response whose body is `body` (as `contentType`): for media the body
        /// decides (random bytes, a PNG, a truncated MP4…).
        case serve(body: Data, contentType: String)
        /// Declares `declaredLength` bytes but sends `body` only (shorter), then closes.
        case wrongContentLength(body: Data, declaredLength: Int)
        /// A bare status response with a short text body (404, 500…).
        case status(Int)
        /// A valid 200 response that sends the first `firstBytes` of `body`, goes quiet for
        /// `pause` seconds (a congested network), then sends the rest.
        case pauseMidway(body: Data, contentType: String, firstBytes: Int, pause: Double)
        /// A 200 with no Content-Length whose body repeats `line` until `maximumBytes` are sent or
        /// the client goes away (a 600 MB playlist, say); `sentBytes` counts what went out.
        case endless(line: String, contentType: String, maximumBytes: Int)
    }

    public let port: UInt16
    public var url: String { "http://127.0.0.1:\(port)/media.mp4" }

    private let behavior: Behavior
    private let maxConnections: Int
    private let listenFD: Int32
    private struct State {
        var stopped = false
        var clients: Set<Int32> = []
        var requests: [String] = []
        var sentBytes = 0
        var threads = 0
    }
    private let state = Mutex(State())

    /// Starts listening at once on an ephemeral port.
    public init(_ behavior: Behavior, maxConnections: Int = 8) throws {
        self.behavior = behavior
        self.maxConnections = maxConnections
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = 0
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else { close(fd); throw POSIXError(.EADDRINUSE) }
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
        }
        port = UInt16(bigEndian: addr.sin_port)
        listenFD = fd
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "misbehaving-http-accept"
        thread.start()
    }

    /// Threads hold the server until `stop()`: call it (`defer { server.stop() }`).
    deinit { stop() }

    /// The request lines received so far ("GET /media.mp4 HTTP/1.1").
    public var requests: [String] { state.withLock { $0.requests } }

    /// Stops accepting and closes every connection (stalled ones too). Idempotent.
    /// Body bytes sent by `.endless` so far.
    public var sentBytes: Int { state.withLock { $0.sentBytes } }

    public func stop() {
        state.withLock { s in
            guard !s.stopped else { return }
            s.stopped = true
            // Under the lock, so that no connection thread closes (and the kernel reuses) the fd first.
            for c in s.clients { shutdown(c, Int32(SHUT_RDWR)) }
        }
        // The accept loop notices within 100 ms and closes the listening socket; wait for threads.
        let deadline = Date().addingTimeInterval(2)
        while state.withLock({ $0.threads }) > 0 && Date() < deadline { usleep(10_000) }
    }

    private var isStopped: Bool { state.withLock { $0.stopped } }

    private func acceptLoop() {
        state.withLock { $0.threads += 1 }
        defer {
            close(listenFD)
            state.withLock { $0.threads -= 1 }
        }
        while !isStopped {
            var pfd = pollfd(fd: listenFD, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 100) > 0 else { continue }
            let client = accept(listenFD, nil, nil)
            if client < 0 { continue }
            let admitted = state.withLock { s -> Bool in
                guard !s.stopped, s.clients.count < maxConnections else { return false }
                s.clients.insert(client)
                s.threads += 1
                return true
            }
            guard admitted else { close(client); continue }
            let thread = Thread { [self] in
                handle(client)
                state.withLock {
                    $0.clients.remove(client)
                    $0.threads -= 1
                    close(client)
                }
            }
            thread.name = "misbehaving-http-conn"
            thread.start()
        }
    }

    /// Reads up to the end of the request head (bounded: 5 s, 64 KiB).
    private func readRequestHead(_ fd: Int32) -> String? {
        var data = [UInt8]()
        let deadline = Date().addingTimeInterval(5)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while Date() < deadline, data.count < 65536, !isStopped {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 100) > 0 else { continue }
            let n = read(fd, &buffer, buffer.count)
            if n <= 0 { return nil }
            data += buffer[0..<n]
            if let text = String(bytes: data, encoding: .isoLatin1), text.contains("\r\n\r\n") { return text }
        }
        return nil
    }

    private func send(_ fd: Int32, _ bytes: Data) {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if n <= 0 { return }
                offset += n
            }
        }
    }

    private func handle(_ fd: Int32) {
        guard let head = readRequestHead(fd) else { return }
        let requestLine = head.components(separatedBy: "\r\n").first ?? ""
        state.withLock { $0.requests.append(requestLine) }
        let isHead = requestLine.hasPrefix("HEAD ")
        switch behavior {
        case .reset:
            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
            setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        case .stall(let seconds):
            let deadline = Date().addingTimeInterval(seconds)
            var buffer = [UInt8](repeating: 0, count: 1024)
            while Date() < deadline, !isStopped {
                var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                if poll(&pfd, 1, 100) > 0, read(fd, &buffer, buffer.count) <= 0 { return }  // the client gave up
            }
        case .garbage:
            var bytes = Data("\u{0}\u{1}\u{2}GARBAGE \u{7f}\u{1b}[0m not http at all\r\n\r\n".utf8)
            var generator = SplitMix(seed: 7)
            bytes += Data((0..<2048).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
            send(fd, bytes)
        case .serve(let body, let contentType):
            send(fd, Self.head(status: 200, reason: "OK", contentType: contentType, length: body.count))
            if !isHead { send(fd, body) }
        case .wrongContentLength(let body, let declared):
            send(fd, Self.head(status: 200, reason: "OK", contentType: "video/mp4", length: declared))
            if !isHead { send(fd, body) }
        case .pauseMidway(let body, let contentType, let firstBytes, let pause):
            send(fd, Self.head(status: 200, reason: "OK", contentType: contentType, length: body.count))
            guard !isHead else { return }
            send(fd, body.prefix(firstBytes))
            let deadline = Date().addingTimeInterval(pause)
            while Date() < deadline, !isStopped { usleep(20_000) }
            if !isStopped { send(fd, body.dropFirst(firstBytes)) }
        case .endless(let line, let contentType, let maximumBytes):
            send(fd, Data("HTTP/1.1 200 OK\r\nContent-Type: \(contentType)\r\nConnection: close\r\n\r\n".utf8))
            guard !isHead else { return }
            let chunk = Data(String(repeating: line, count: max(1, 65536 / max(1, line.utf8.count))).utf8)
            var sent = 0
            while sent < maximumBytes, !isStopped {
                let n = chunk.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if n <= 0 { break }
                sent += n
                state.withLock { $0.sentBytes += n }
            }
        case .status(let code):
            let body = Data("status \(code)\n".utf8)
            send(fd, Self.head(status: code, reason: code == 404 ? "Not Found" : "Error", contentType: "text/plain", length: body.count))
            if !isHead { send(fd, body) }
        }
    }

    private static func head(status: Int, reason: String, contentType: String, length: Int) -> Data {
        Data("HTTP/1.1 \(status) \(reason)\r\nContent-Type: \(contentType)\r\nContent-Length: \(length)\r\nAccept-Ranges: none\r\nConnection: close\r\n\r\n".utf8)
    }
}
