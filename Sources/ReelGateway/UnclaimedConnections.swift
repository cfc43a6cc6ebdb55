import NIOCore
import NIOHTTP1
import Synchronization

/// Every client connection's async wrapper from the moment the server makes it until someone
/// claims it: the accept loop (to serve or refuse it) or the shutdown (to close it). Each is
/// claimed once and finished with `executeThenClose`: swift-nio's `preconditionFailure` on an
/// async writer deinitialised unfinished (in release builds too) killed the process when a
/// gateway shut down under connections it had made but not yet handed over (a window closed at
/// once, a quit during hlsdemux2's first requests).
final class UnclaimedConnections: Sendable {
    typealias Connection = NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>
    private let waiting = Mutex<[ObjectIdentifier: Connection]>([:])

    /// The server made `connection` (on its event loop).
    func add(_ connection: Connection) {
        waiting.withLock { $0[ObjectIdentifier(connection.channel)] = connection }
    }

    /// Claims `connection`; false when the shutdown claimed it first.
    func claim(_ connection: Connection) -> Bool {
        waiting.withLock { $0.removeValue(forKey: ObjectIdentifier(connection.channel)) != nil }
    }

    /// Claims every connection still waiting, and closes them.
    func closeAll() async {
        let left = waiting.withLock { w -> [Connection] in
            defer { w.removeAll() }
            return Array(w.values)
        }
        for connection in left { try? await connection.executeThenClose { _, _ in } }
    }
}
