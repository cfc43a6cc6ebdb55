import Foundation
@testable import ReelGateway
import ReelTestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Whose connection it is (`LoopbackPeer`): answered from Reel's own descriptors, with real
/// sockets, while another process holds hundreds of loopback connections of its own (a busy
/// host's `/proc/net/tcp` made every gateway connection cost a scan of the whole table).
final class LoopbackPeerTests: XCTestCase {
    private func listener() throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var size = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &addr) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, size) == 0 && listen(fd, 1024) == 0 && getsockname(fd, $0, &size) == 0 }
        }
        guard bound else { throw NSError(domain: "listen", code: Int(errno)) }
        return (fd, Int(UInt16(bigEndian: addr.sin_port)))
    }

    private func connect(_ port: Int) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        return fd
    }

    func testOwnAndForeignConnectionsAreToldApartFromReelsOwnSockets() throws {
        let server = try listener()
        defer { close(server.fd) }
        // Another process: 400 loopback connections of its own (800 lines of /proc/net/tcp),
        // held open, then one connection to our listener, held too.
        let other = Process()
        other.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        other.arguments = ["-c", """
            import socket, sys, time
            l = socket.socket(); l.bind(("127.0.0.1", 0)); l.listen(512)
            held = []
            for _ in range(400):
                c = socket.create_connection(l.getsockname()); a, _ = l.accept(); held += [c, a]
            ours = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
            print(ours.getsockname()[1], flush=True)
            time.sleep(30)
            """, String(server.port)]
        let out = Pipe()
        other.standardOutput = out
        try other.run()
        defer { other.terminate(); other.waitUntilExit() }
        let line = String(decoding: out.fileHandleForReading.availableData, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let foreignPort = try XCTUnwrap(Int(line), "the other process did not connect: \(line)")
        let serverEnd = try XCTUnwrap(SocketEndpoint(host: "127.0.0.1", port: server.port))

        // Reel's own connection.
        let own = connect(server.port)
        defer { close(own) }
        let ownEnd = try XCTUnwrap(SocketEndpoint.local(of: own))
        let ownFDs = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count

        let mine = LoopbackPeer.check(peer: ownEnd, server: serverEnd)
        XCTAssertEqual(mine.isOwnProcess, true)
        let theirs = LoopbackPeer.check(peer: try XCTUnwrap(SocketEndpoint(host: "127.0.0.1", port: foreignPort)), server: serverEnd)
        XCTAssertEqual(theirs.isOwnProcess, false, "the other process's connection is not Reel's")
        // The work is Reel's descriptors, not the machine's 800+ connections.
        XCTAssertLessThanOrEqual(theirs.examined, ownFDs + 8)
        XCTAssertLessThan(theirs.examined, 800)
    }

    func testAddressesAreComparedAsTheKernelNamesThem() {
        XCTAssertEqual(SocketEndpoint(host: "::ffff:127.0.0.1", port: 80), SocketEndpoint(host: "127.0.0.1", port: 80))
        XCTAssertNotEqual(SocketEndpoint(host: "127.0.0.2", port: 80), SocketEndpoint(host: "127.0.0.1", port: 80))
        XCTAssertNotEqual(SocketEndpoint(host: "127.0.0.1", port: 81), SocketEndpoint(host: "127.0.0.1", port: 80))
        XCTAssertEqual(SocketEndpoint(host: "::1", port: 80)?.address.count, 16)
        XCTAssertNil(SocketEndpoint(host: "localhost", port: 80))
    }
}
