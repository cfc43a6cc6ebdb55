import Foundation
@testable import ReelApp
import ReelDesktop
import ReelTestSupport
import XCTest

/// When the windowed default publishes MPRIS: only when a session bus is already there.
final class RemoteOptionsTests: XCTestCase {
    func testASessionBusIsFoundByAddressOrAtTheRuntimeDirectory() throws {
        let dir = TestMedia.temporaryDirectory("reel-bus")
        defer { try? FileManager.default.removeItem(at: dir) }
        XCTAssertTrue(SessionBus.isAvailable(["DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/1000/bus"]))
        XCTAssertFalse(SessionBus.isAvailable([:]), "nothing to connect to: no autolaunched daemon")
        XCTAssertFalse(SessionBus.isAvailable(["DBUS_SESSION_BUS_ADDRESS": "", "XDG_RUNTIME_DIR": dir.path]))
        // A plain file named "bus" is not a bus; a listening Unix socket is.
        _ = FileManager.default.createFile(atPath: dir.appendingPathComponent("bus").path, contents: Data())
        XCTAssertFalse(SessionBus.isAvailable(["XDG_RUNTIME_DIR": dir.path]))
        try FileManager.default.removeItem(at: dir.appendingPathComponent("bus"))
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let path = dir.appendingPathComponent("bus").path
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.prefix(raw.count - 1).enumerated() { raw[i] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        XCTAssertEqual(bound, 0)
        XCTAssertTrue(SessionBus.isAvailable(["XDG_RUNTIME_DIR": dir.path]))
    }
}
