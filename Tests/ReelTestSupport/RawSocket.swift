import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Raw TCP client sockets on 127.0.0.1, for tests that act as a local process does (hold
/// connections open, send half a request, go away mid-answer).
public enum RawSocket {
    /// A connection to 127.0.0.1:port, its reads bounded by `receiveTimeout` seconds.
    public static func connect(_ port: Int, receiveTimeout: Int = 5) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let ok = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard ok == 0 else { close(fd); throw NSError(domain: "connect", code: Int(errno)) }
        var tv = timeval(tv_sec: receiveTimeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        return fd
    }

    public static func send(_ fd: Int32, _ text: String) { _ = text.withCString { Glibc.send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) } }

    /// Reads until the peer closes (everything read) or the receive timeout passes (nil).
    public static func readUntilClosed(_ fd: Int32) -> String? {
        var all = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n == 0 { return String(decoding: all, as: UTF8.self) }
            if n < 0 { return errno == ECONNRESET ? String(decoding: all, as: UTF8.self) : nil }
            all += buffer[0..<n]
        }
    }
}
