import ReelCore

/// How a player's events reach its observers: only on change (`EventDeduplicator`), in order,
/// on the main thread, each with the item it was emitted for; an event emitted while others are
/// being delivered (an observer that acts) waits its turn, so every observer sees one order.
@MainActor
final class EventDelivery {
    typealias Observer = Player.Observer
    typealias ItemObserver = Player.ItemObserver

    private var observers = ObserverList<Observer>()
    private var itemObservers = ObserverList<ItemObserver>()
    private var pending: [(event: PlayerEvent, item: PlaybackItem?)] = []
    private var deduplicator = EventDeduplicator()
    private var delivering = false

    func add(_ observer: @escaping Observer) -> Int { observers.add(observer) }
    func remove(_ id: Int) { observers.remove(id) }
    func addItemObserver(_ observer: @escaping ItemObserver) -> Int { itemObservers.add(observer) }
    func removeItemObserver(_ id: Int) { itemObservers.remove(id) }

    func removeAll() {
        observers.removeAll()
        itemObservers.removeAll()
    }

    /// Delivers `event` as `item`'s, unless it says what the last one of its kind said.
    func emit(_ event: PlayerEvent, item: PlaybackItem?) {
        guard let event = deduplicator.admit(event) else { return }  // events only on change, decided here
        pending.append((event, item))
        guard !delivering else { return }  // re-entrant emits are queued, so order holds for everyone
        delivering = true
        defer { delivering = false }
        while !pending.isEmpty {
            let (e, item) = pending.removeFirst()
            for o in observers.all { o(e) }
            for o in itemObservers.all { o(e, item) }
        }
    }
}
