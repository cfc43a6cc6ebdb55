import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A blocking client for Reel's control socket (JSON lines over a Unix-domain socket), for tests.
public final class IPCTestClient {
    private let fd: Int32
    private var buffer: [UInt8] = []
    /// Every line received so far that was not consumed by `reply(to:)`: mostly events.
    public private(set) var events: [[String: Any]] = []

    /// Connects, retrying until `timeout` (the server may still be starting).
    public init?(path: String, timeout: Double = 10) {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let s = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var addr = sockaddr_un()
            addr.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(path.utf8)
            withUnsafeMutableBytes(of: &addr.sun_path) { raw in
                raw.copyBytes(from: bytes.prefix(raw.count - 1))
            }
            let ok = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(s, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0 }
            }
            if ok { fd = s; return }
            close(s)
            if Date() > deadline { return nil }
            usleep(50_000)
        }
    }

    deinit { close(fd) }

    /// Writes raw bytes (for malformed-input tests).
    public func sendRaw(_ text: String) {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            sent += n
        }
    }

    public func send(_ object: [String: Any]) {
        let data = try! JSONSerialization.data(withJSONObject: object)
        sendRaw(String(decoding: data, as: UTF8.self) + "\n")
    }

    /// The next line as JSON, or nil after `timeout` seconds (or if the server closed).
    public func nextLine(timeout: Double = 10) -> [String: Any]? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let nl = buffer.firstIndex(of: 0x0A) {
                let line = Array(buffer[..<nl])
                buffer.removeSubrange(...nl)
                if let o = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] { return o }
                return ["unparsable": String(decoding: line, as: UTF8.self)]
            }
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 { return nil }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&p, 1, Int32(min(remaining, 1) * 1000)) <= 0 { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = read(fd, &chunk, chunk.count)
            if n <= 0 { return nil }
            buffer += chunk[0..<n]
        }
    }

    /// Sends a command and waits for the reply carrying `id`; event lines seen meanwhile are kept in `events`.
    public func request(_ command: [Any], id: Int, timeout: Double = 15) -> [String: Any]? {
        send(["command": command, "request_id": id])
        return reply(to: id, timeout: timeout)
    }

    public func reply(to id: Int, timeout: Double = 15) -> [String: Any]? {
        let deadline = Date().addingTimeInterval(timeout)
        while let line = nextLine(timeout: max(0, deadline.timeIntervalSinceNow)) {
            if line["event"] != nil { events.append(line); continue }
            if line["request_id"] as? Int == id { return line }
            events.append(line)
        }
        return nil
    }

    /// The next line that is not an event (a reply), keeping events seen meanwhile.
    public func nextReply(timeout: Double = 15) -> [String: Any]? {
        let deadline = Date().addingTimeInterval(timeout)
        while let line = nextLine(timeout: max(0, deadline.timeIntervalSinceNow)) {
            if line["event"] != nil { events.append(line); continue }
            return line
        }
        return nil
    }

    /// Waits until an event matching `predicate` arrives (or was already received).
    public func waitForEvent(timeout: Double = 15, _ predicate: ([String: Any]) -> Bool) -> [String: Any]? {
        if let e = events.first(where: predicate) { return e }
        let deadline = Date().addingTimeInterval(timeout)
        while let line = nextLine(timeout: max(0, deadline.timeIntervalSinceNow)) {
            events.append(line)
            if predicate(line) { return line }
        }
        return nil
    }
}
