import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Whether a loopback TCP connection to the gateway was opened by Reel's own process.
///
/// Gateway URLs carry a random key, but the key travels in URLs that playbin3 logs (`GST_DEBUG`
/// prints every URI), so another local process could read it and use the gateway, and with it the
/// user's credentials. On Linux a loopback connection's two ends are both in `/proc/net/tcp`:
/// the client's end (local port = the peer's port) has a socket inode, and Reel's own open file
/// descriptors (`/proc/self/fd`) hold that inode only if Reel opened the connection. Where `/proc`
/// cannot be read, the check answers `nil` (unknown) and the key alone guards the gateway.
enum LoopbackPeer {
    /// true: the peer is this process; false: another process; nil: cannot tell.
    static func isOwnProcess(peerPort: Int, serverPort: Int) -> Bool? {
        guard let inode = clientSocketInode(peerPort: peerPort, serverPort: serverPort, table: "/proc/net/tcp")
                ?? clientSocketInode(peerPort: peerPort, serverPort: serverPort, table: "/proc/net/tcp6") else {
            return FileManager.default.isReadableFile(atPath: "/proc/net/tcp") ? false : nil
        }
        let target = "socket:[\(inode)]"
        guard let fds = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return nil }
        for fd in fds {
            if let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + fd), link == target { return true }
        }
        return false
    }

    /// The inode of the client's end of the connection peerPort → serverPort, from a
    /// `/proc/net/tcp`-format table (`sl local_address rem_address st … uid timeout inode`).
    static func clientSocketInode(peerPort: Int, serverPort: Int, table: String) -> String? {
        guard let text = readProcFile(table) else { return nil }
        return clientSocketInode(peerPort: peerPort, serverPort: serverPort, tableText: text)
    }

    /// A /proc file's text. (/proc files report a size of 0, so Foundation's readers that trust
    /// the size read nothing: read until EOF.)
    static func readProcFile(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = read(fd, &chunk, chunk.count)
            if n <= 0 { break }
            bytes += chunk[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func clientSocketInode(peerPort: Int, serverPort: Int, tableText: String) -> String? {
        let local = String(format: ":%04X", peerPort), remote = String(format: ":%04X", serverPort)
        for line in tableText.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count > 9, fields[1].hasSuffix(local), fields[2].hasSuffix(remote), isLoopback(fields[1]) else { continue }
            return String(fields[9])
        }
        return nil
    }

    /// 127.x.x.x as /proc writes it (little-endian hex: 0100007F), or ::1 / ::ffff:127.x.
    private static func isLoopback(_ address: Substring) -> Bool {
        let host = address.split(separator: ":").first ?? ""
        if host.count == 8 { return host.hasSuffix("7F") }
        return host == "00000000000000000000000001000000" || host.hasPrefix("0000000000000000FFFF0000") && host.hasSuffix("7F")
    }
}
