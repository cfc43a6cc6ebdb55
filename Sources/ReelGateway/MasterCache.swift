import Foundation
import Synchronization

/// Playlists the gateway fetched moments ago, per item and resource, so that upstream is asked
/// once at start: masters (their unavailable variants already left out) for `lifetime`, since
/// hlsdemux2, the playlist reader and the discoverer each ask for the master; and the variant
/// playlists fetched to check them (`once`), handed to the first request for each and then
/// forgotten, so that a live playlist's refreshes always go upstream. Bounded: at most
/// `capacity` entries.
final class MasterCache: Sendable {
    struct Entry: Sendable {
        var text: String
        var base: URL
        var at: ContinuousClock.Instant
        /// Served once, within `onceLifetime`.
        var once = false
    }

    /// How long a checked variant's playlist waits for the player's first request.
    let onceLifetime: Duration = .seconds(5)

    let lifetime: Duration
    let capacity: Int
    private let entries = Mutex<[Key: Entry]>([:])
    /// Playlists being fetched now, with the requests waiting for them.
    private let inFlight = Mutex<[Key: [CheckedContinuation<Entry?, Never>]]>([:])

    private struct Key: Hashable {
        var item: Int
        var resource: Int
    }

    init(lifetime: Duration = .seconds(30), capacity: Int = 32) {
        self.lifetime = lifetime
        self.capacity = capacity
    }

    func fresh(item: GatewayItemID, resource: Int) -> Entry? {
        entries.withLock { e in
            let key = Key(item: item.rawValue, resource: resource)
            guard let entry = e[key] else { return nil }
            guard ContinuousClock.now - entry.at < (entry.once ? onceLifetime : lifetime) else { return nil }
            if entry.once { e.removeValue(forKey: key) }
            return entry
        }
    }

    /// Whether this request fetches the playlist (true), or another one for the same resource
    /// is under way and this one should `wait` for it (false).
    func lead(item: GatewayItemID, resource: Int) -> Bool {
        inFlight.withLock { f in
            let key = Key(item: item.rawValue, resource: resource)
            if f[key] != nil { return false }
            f[key] = []
            return true
        }
    }

    /// What the leading request stored (a master: every waiter gets it), or nil (fetch it yourself).
    func wait(item: GatewayItemID, resource: Int) async -> Entry? {
        await withCheckedContinuation { (c: CheckedContinuation<Entry?, Never>) in
            let queued = inFlight.withLock { f -> Bool in
                let key = Key(item: item.rawValue, resource: resource)
                guard f[key] != nil else { return false }
                f[key]!.append(c)
                return true
            }
            if !queued { c.resume(returning: nil) }
        }
    }

    /// The leading request is done: its waiters go on with what it stored, if anything.
    func finish(item: GatewayItemID, resource: Int) {
        let key = Key(item: item.rawValue, resource: resource)
        let waiters = inFlight.withLock { $0.removeValue(forKey: key) } ?? []
        guard !waiters.isEmpty else { return }
        let entry = entries.withLock { e -> Entry? in
            guard let entry = e[key], !entry.once, ContinuousClock.now - entry.at < lifetime else { return nil }
            return entry
        }
        for w in waiters { w.resume(returning: entry) }
    }

    func store(_ text: String, base: URL, item: GatewayItemID, resource: Int, once: Bool = false) {
        entries.withLock { e in
            let now = ContinuousClock.now
            e = e.filter { now - $0.value.at < ($0.value.once ? onceLifetime : lifetime) }
            if e.count >= capacity, let oldest = e.min(by: { $0.value.at < $1.value.at })?.key { e.removeValue(forKey: oldest) }
            e[Key(item: item.rawValue, resource: resource)] = Entry(text: text, base: base, at: now, once: once)
        }
    }
}
