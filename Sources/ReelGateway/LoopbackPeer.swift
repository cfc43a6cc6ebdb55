import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Whether a loopback TCP connection to the gateway was opened by Reel's own process.
///
/// Gateway URLs carry a random key, but the key travels in URLs that playbin3 logs (`GST_DEBUG`
/// prints every URI), so another local process could read it and use the gateway, and with it the
/// user's credentials. A connection from Reel itself has its client end among Reel's own file
/// descriptors: a socket whose local address is the peer's and whose remote address is the
/// gateway's. The check asks Reel's own sockets (`/proc/self/fd`, `getsockname`/`getpeername`):
/// its cost follows Reel's descriptors, never the machine's connection count (it used to scan
/// the system-wide `/proc/net/tcp`: 7,300 lines for every connection on a busy host). Where the
/// descriptors cannot be listed, the check answers `nil` (unknown) and the key alone guards the
/// gateway.
enum LoopbackPeer {
    /// One check's answer and how many of Reel's descriptors it looked at.
    struct Answer: Equatable {
        /// true: the peer is this process; false: another process; nil: cannot tell.
        var isOwnProcess: Bool?
        var examined: Int
    }

    /// true: the peer is this process; false: another process; nil: cannot tell.
    static func isOwnProcess(peer: SocketEndpoint, server: SocketEndpoint) -> Bool? {
        check(peer: peer, server: server).isOwnProcess
    }

    static func check(peer: SocketEndpoint, server: SocketEndpoint) -> Answer {
        guard let dir = opendir("/proc/self/fd") else { return Answer(isOwnProcess: nil, examined: 0) }
        defer { closedir(dir) }
        let own = dirfd(dir)
        var examined = 0
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let fd = Int32(name), fd != own else { continue }
            examined += 1
            if SocketEndpoint.local(of: fd) == peer, SocketEndpoint.remote(of: fd) == server {
                return Answer(isOwnProcess: true, examined: examined)
            }
        }
        return Answer(isOwnProcess: false, examined: examined)
    }
}

/// A TCP endpoint as the kernel names it: an address's bytes (4 for IPv4, 16 for IPv6; an
/// IPv4-mapped IPv6 address is read as its IPv4 address) and a port.
struct SocketEndpoint: Equatable, Sendable {
    var address: [UInt8]
    var port: Int

    init(address: [UInt8], port: Int) {
        // ::ffff:a.b.c.d is a.b.c.d.
        if address.count == 16, address.prefix(10).allSatisfy({ $0 == 0 }), address[10] == 0xFF, address[11] == 0xFF {
            self.address = Array(address.suffix(4))
        } else {
            self.address = address
        }
        self.port = port
    }

    /// From a textual address ("127.0.0.1", "::1") and a port; nil when it does not parse.
    init?(host: String, port: Int) {
        var v4 = in_addr(), v6 = in6_addr()
        if inet_pton(AF_INET, host, &v4) == 1 {
            self.init(address: withUnsafeBytes(of: v4) { Array($0) }, port: port)
        } else if inet_pton(AF_INET6, host, &v6) == 1 {
            self.init(address: withUnsafeBytes(of: v6) { Array($0) }, port: port)
        } else {
            return nil
        }
    }

    static func local(of fd: Int32) -> SocketEndpoint? { endpoint(fd, getsockname) }
    static func remote(of fd: Int32) -> SocketEndpoint? { endpoint(fd, getpeername) }

    private static func endpoint(_ fd: Int32, _ call: (Int32, UnsafeMutablePointer<sockaddr>, UnsafeMutablePointer<socklen_t>) -> Int32) -> SocketEndpoint? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let ok = withUnsafeMutablePointer(to: &storage) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { call(fd, $0, &length) }
        }
        guard ok == 0 else { return nil }  // not a socket, or not connected
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafeBytes(of: storage) { raw in
                let a = raw.load(as: sockaddr_in.self)
                return SocketEndpoint(address: withUnsafeBytes(of: a.sin_addr) { Array($0) }, port: Int(UInt16(bigEndian: a.sin_port)))
            }
        case AF_INET6:
            return withUnsafeBytes(of: storage) { raw in
                let a = raw.load(as: sockaddr_in6.self)
                return SocketEndpoint(address: withUnsafeBytes(of: a.sin6_addr) { Array($0) }, port: Int(UInt16(bigEndian: a.sin6_port)))
            }
        default:
            return nil
        }
    }
}
