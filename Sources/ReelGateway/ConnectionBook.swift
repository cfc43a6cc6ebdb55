import Foundation
import NIOCore
import Synchronization

/// The gateway's open connections and whether each is idle (waiting for a request head), so that
/// the accept loop can keep the number bounded: over the cap, the connection idle the longest is
/// closed (a local process holding hundreds of half-open connections only evicts its own), and
/// when none is idle the new one is refused. Shutdown closes them all.
final class ConnectionBook: Sendable {
    private struct Entry {
        var channel: any Channel
        /// When it started waiting for a request head; nil while a request is being answered.
        var idleSince: ContinuousClock.Instant?
    }

    private let entries = Mutex<[ObjectIdentifier: Entry]>([:])

    var count: Int { entries.withLock { $0.count } }

    /// Adds a new connection; returns false (the caller closes it) when `limit` connections are
    /// open and none of them is idle. Otherwise an idle one may be closed to make room.
    func admit(_ channel: any Channel, limit: Int) -> Bool {
        let (admitted, evicted) = entries.withLock { e -> (Bool, (any Channel)?) in
            var evicted: (any Channel)?
            if e.count >= limit {
                guard let oldest = e.filter({ $0.value.idleSince != nil }).min(by: { $0.value.idleSince! < $1.value.idleSince! }) else {
                    return (false, nil)
                }
                evicted = oldest.value.channel
                e.removeValue(forKey: oldest.key)
            }
            e[ObjectIdentifier(channel)] = Entry(channel: channel, idleSince: .now)
            return (true, evicted)
        }
        evicted?.close(promise: nil)
        return admitted
    }

    func remove(_ channel: any Channel) { entries.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(channel)) } }

    func setIdle(_ channel: any Channel, _ idle: Bool) {
        entries.withLock { e in e[ObjectIdentifier(channel)]?.idleSince = idle ? .now : nil }
    }

    func closeAll() {
        for channel in entries.withLock({ $0.values.map(\.channel) }) { channel.close(promise: nil) }
    }
}
