import Foundation
import ReelCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A Unix-domain stream socket that speaks JSON lines, served on its own thread with poll(2).
/// Lines in are handed to `onLine` on that thread (hop to the main thread yourself); lines out are
/// queued with `send`/`broadcast` from any thread and written without blocking anyone. The socket
/// file is created with mode 0600 and removed by `stop()`. A client that stops reading is dropped
/// once 16 MiB are queued for it; a line over 1 MiB is answered with an error and discarded.
final class ControlSocketServer: Sendable {
    typealias ClientID = Int
    static let maxLineBytes = 1 << 20
    static let maxQueuedBytes = 16 << 20

    struct SocketError: Error, CustomStringConvertible {
        var description: String
    }

    private struct Client {
        var fd: Int32
        var input: [UInt8] = []
        var output: [UInt8] = []
        var discardingLongLine = false
        /// The peer shut its side down: no more input, but replies still go out.
        var readClosed = false
        var failed = false
    }

    private struct State {
        var clients: [ClientID: Client] = [:]
        var nextID = 1
        var stopping = false
    }

    let path: String
    private let listenFD: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let state = Mutex(State())
    private let finished = DispatchSemaphore(value: 0)
    private let handlers = Mutex<(line: (@Sendable (ClientID, String) -> Void)?, overlong: (@Sendable (ClientID) -> Void)?)>((nil, nil))
    /// Told (on the server's thread) when a client's connection is gone.
    private let closedHandler = Mutex<(@Sendable (ClientID) -> Void)?>(nil)

    /// The default path: `$XDG_RUNTIME_DIR/reel-<pid>.sock`, or `$TMPDIR/reel-<uid>/reel-<pid>.sock`
    /// (`/tmp` without TMPDIR) when that directory is (or can be made) the user's own private one.
    /// Throws when another user owns it, or it is a symlink or open to others: they could take the
    /// socket's place.
    static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> String {
        let pid = ProcessInfo.processInfo.processIdentifier
        if let dir = environment["XDG_RUNTIME_DIR"], !dir.isEmpty {
            return (dir as NSString).appendingPathComponent("reel-\(pid).sock")
        }
        let root = environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        let dir = "\(root)/reel-\(getuid())"
        do { try PrivateFile.privateDirectory(dir) } catch {
            throw SocketError(description: "No safe place for the control socket (XDG_RUNTIME_DIR is unset, and \(error)); give --ipc PATH.")
        }
        return dir + "/reel-\(pid).sock"
    }

    /// Binds and listens. Refuses a path in use by a live server; replaces a stale socket file.
    init(path: String) throws {
        self.path = path
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: addr.sun_path)
        guard !bytes.isEmpty, bytes.count < capacity else {
            throw SocketError(description: "The socket path is \(bytes.count) bytes long; at most \(capacity - 1) fit: \(path)")
        }
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        var st = stat()
        if lstat(path, &st) == 0 {
            guard (st.st_mode & S_IFMT) == S_IFSOCK else { throw SocketError(description: "\(path) exists and is not a socket.") }
            // Someone listening? Then it is in use; otherwise it is stale.
            let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            let inUse = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(probe, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0 }
            }
            close(probe)
            if inUse { throw SocketError(description: "Another program is listening on \(path).") }
            unlink(path)
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw SocketError(description: "socket(): \(String(cString: strerror(errno)))") }
        let oldMask = umask(0o177)  // the socket file is born 0600
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        let bindErrno = errno
        umask(oldMask)
        guard bound == 0 else {
            close(fd)
            throw SocketError(description: "Could not create the control socket \(path): \(String(cString: strerror(bindErrno)))")
        }
        chmod(path, 0o600)
        guard listen(fd, 16) == 0 else {
            let e = errno
            close(fd)
            unlink(path)
            throw SocketError(description: "listen() on \(path): \(String(cString: strerror(e)))")
        }
        var pipeFDs: [Int32] = [0, 0]
        guard pipe(&pipeFDs) == 0 else {
            close(fd)
            unlink(path)
            throw SocketError(description: "pipe2(): \(String(cString: strerror(errno)))")
        }
        for p in pipeFDs { Self.setFlags(p) }
        listenFD = fd
        wakeRead = pipeFDs[0]
        wakeWrite = pipeFDs[1]
    }

    /// Starts serving. `onLine` gets every complete line (without the newline) from a client;
    /// `onOverlongLine` is told when a line was too long and discarded.
    func start(onLine: @escaping @Sendable (ClientID, String) -> Void, onOverlongLine: @escaping @Sendable (ClientID) -> Void,
               onClosed: (@Sendable (ClientID) -> Void)? = nil) {
        handlers.withLock { $0 = (onLine, onOverlongLine) }
        closedHandler.withLock { $0 = onClosed }
        let thread = Thread { [self] in serve() }
        thread.name = "reel-ipc"
        thread.start()
    }

    /// Queues a line (a newline is added) for one client; ignored when it has gone.
    func send(_ line: String, to client: ClientID) {
        let queued = state.withLock { s -> Bool in
            guard var c = s.clients[client] else { return false }
            c.output.append(contentsOf: Array(line.utf8) + [0x0A])
            if c.output.count > Self.maxQueuedBytes { c.output.removeAll(); c.failed = true }
            s.clients[client] = c
            return true
        }
        if queued { wake() }
    }

    /// Queues a line for every connected client (but those in `except`).
    func broadcast(_ line: String, except: Set<ClientID> = []) {
        let bytes = Array(line.utf8) + [0x0A]
        let any = state.withLock { s -> Bool in
            for id in s.clients.keys where !except.contains(id) {
                s.clients[id]!.output.append(contentsOf: bytes)
                if s.clients[id]!.output.count > Self.maxQueuedBytes { s.clients[id]!.output.removeAll(); s.clients[id]!.failed = true }
            }
            return !s.clients.isEmpty
        }
        if any { wake() }
    }

    var clientCount: Int { state.withLock { $0.clients.count } }

    /// Flushes what is queued (briefly), closes every connection and removes the socket file.
    func stop() {
        let already = state.withLock { s -> Bool in
            let was = s.stopping
            s.stopping = true
            return was
        }
        guard !already else { return }
        wake()
        _ = finished.wait(timeout: .now() + 2)
        unlink(path)
    }

    /// Non-blocking and close-on-exec (pipe2/accept4 are not visible to Swift on glibc).
    private static func setFlags(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC)
    }

    private func wake() {
        var b: UInt8 = 1
        _ = write(wakeWrite, &b, 1)
    }

    private func serve() {
        defer {
            let fds = state.withLock { s -> [Int32] in
                let f = s.clients.values.map(\.fd)
                s.clients.removeAll()
                return f
            }
            for fd in fds { close(fd) }
            close(listenFD)
            close(wakeRead)
            close(wakeWrite)
            finished.signal()
        }
        var stopDeadline: Date?
        while true {
            let (ids, pollFDs, stopping, gone) = state.withLock { s -> ([ClientID], [pollfd], Bool, [ClientID]) in
                var gone: [ClientID] = []
                for (id, c) in s.clients where c.failed {
                    close(c.fd)
                    s.clients.removeValue(forKey: id)
                    gone.append(id)
                }
                var ids: [ClientID] = []
                var p = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
                if !s.stopping { p.append(pollfd(fd: listenFD, events: Int16(POLLIN), revents: 0)) }
                for (id, c) in s.clients {
                    ids.append(id)
                    let wantsInput = !s.stopping && !c.readClosed
                    p.append(pollfd(fd: c.fd, events: Int16(wantsInput ? POLLIN : 0) | Int16(c.output.isEmpty ? 0 : POLLOUT), revents: 0))
                }
                return (ids, p, s.stopping, gone)
            }
            if let closed = closedHandler.withLock({ $0 }) { for id in gone { closed(id) } }
            if stopping {
                if stopDeadline == nil { stopDeadline = Date().addingTimeInterval(1) }
                let pending = state.withLock { s in s.clients.values.contains { !$0.output.isEmpty } }
                if !pending || Date() > stopDeadline! { return }
            }
            var fds = pollFDs
            let n = poll(&fds, nfds_t(fds.count), stopping ? 50 : -1)
            if n < 0 && errno != EINTR { return }
            if fds[0].revents != 0 {
                var buf = [UInt8](repeating: 0, count: 256)
                while read(wakeRead, &buf, buf.count) > 0 {}
            }
            var offset = 1
            if !stopping {
                if fds[1].revents & Int16(POLLIN) != 0 { acceptClients() }
                offset = 2
            }
            for (i, id) in ids.enumerated() {
                let revents = fds[offset + i].revents
                if revents == 0 { continue }
                if revents & Int16(POLLOUT) != 0 { flush(id) }
                if revents & Int16(POLLIN) != 0 { readFrom(id) }
                let gone = state.withLock { s in s.clients[id].map { $0.failed || ($0.readClosed && revents & (Int16(POLLHUP) | Int16(POLLERR)) != 0) } ?? false }
                if gone || revents & Int16(POLLERR) != 0 { drop(id) }
            }
        }
    }

    private func acceptClients() {
        while true {
            let fd = accept(listenFD, nil, nil)
            if fd < 0 { return }
            Self.setFlags(fd)
            state.withLock { s in
                s.clients[s.nextID] = Client(fd: fd)
                s.nextID += 1
            }
        }
    }

    private func drop(_ id: ClientID) {
        guard let fd = state.withLock({ $0.clients.removeValue(forKey: id)?.fd }) else { return }
        close(fd)
        closedHandler.withLock { $0 }?(id)
    }

    private func flush(_ id: ClientID) {
        state.withLock { s in
            guard var c = s.clients[id] else { return }
            while !c.output.isEmpty {
                let n = c.output.withUnsafeBytes { Glibc.send(c.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if n > 0 { c.output.removeFirst(n); continue }
                if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) { break }
                c.output.removeAll()  // the peer is gone
                c.failed = true
                break
            }
            s.clients[id] = c
        }
    }

    private func readFrom(_ id: ClientID) {
        guard let fd = state.withLock({ $0.clients[id]?.fd }) else { return }
        var buf = [UInt8](repeating: 0, count: 65536)
        var lines: [String] = []
        var overlong = false
        var closed = false, eof = false
        while true {
            let n = read(fd, &buf, buf.count)
            if n == 0 { eof = true; break }
            if n < 0 {
                if errno == EINTR { continue }
                if errno != EAGAIN && errno != EWOULDBLOCK { closed = true }
                break
            }
            state.withLock { s in
                guard var c = s.clients[id] else { return }
                for byte in buf[0..<n] {
                    if byte == 0x0A {
                        if c.discardingLongLine { c.discardingLongLine = false }
                        else { lines.append(String(decoding: c.input, as: UTF8.self)); }
                        c.input.removeAll(keepingCapacity: true)
                    } else if !c.discardingLongLine {
                        c.input.append(byte)
                        if c.input.count > Self.maxLineBytes {
                            c.input.removeAll()
                            c.discardingLongLine = true
                            overlong = true
                        }
                    }
                }
                s.clients[id] = c
            }
        }
        let (onLine, onOverlong) = handlers.withLock { $0 }
        for line in lines {
            let trimmed = line.hasSuffix("\r") ? String(line.dropLast()) : line
            if trimmed.trimmingCharacters(in: .whitespaces).isEmpty { continue }
            onLine?(id, trimmed)
        }
        if overlong { onOverlong?(id) }
        if closed { drop(id) }
        if eof { state.withLock { s in s.clients[id]?.readClosed = true } }
    }
}
