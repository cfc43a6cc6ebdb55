/// Observers in the order they were added, each with an id to remove it by. The engine's
/// `Player` and the app's `QueueSequencer` keep theirs in one; delivery (and its order under
/// re-entrancy) stays theirs.
public struct ObserverList<Observer> {
    private var entries: [(id: Int, observer: Observer)] = []
    private var lastID = 0

    public init() {}

    /// Adds `observer` after the others; returns its id.
    public mutating func add(_ observer: Observer) -> Int {
        lastID += 1
        entries.append((lastID, observer))
        return lastID
    }

    /// Removes the observer with `id` (nothing when there is none).
    public mutating func remove(_ id: Int) { entries.removeAll { $0.id == id } }

    public mutating func removeAll() { entries.removeAll() }

    /// The observers, oldest first: a copy, so that one may add or remove observers while
    /// the others are being called.
    public var all: [Observer] { entries.map(\.observer) }

    public var count: Int { entries.count }
}
