import Foundation
import Synchronization

/// An ordered play queue with a current item, repeat and shuffle: the order rules of an
/// AVQueuePlayer-like player, as a pure value type (the player itself is driven by
/// `QueueSequencer` in ReelApp).
///
/// Rules:
/// - `items` is the play order, which is also the order a panel shows; indices refer to it.
///   Items are named by `id`, which survives every reordering.
/// - `finishCurrent(_:)` is the automatic advance at the end (or failure) of the current item:
///   repeat one replays the item (unless it failed), repeat all wraps to the start, off stops.
///   `next()` is the user's skip: it ignores repeat one. `upcoming` answers, without moving,
///   what `finishCurrent(.played)` would pick (for gapless pre-roll).
/// - `previous(position:)` restarts the current item when more than `restartThreshold` seconds
///   have played, and otherwise goes to the item before (wrapping under repeat all).
/// - Shuffle puts the current item first and the others in random order after it, so every item
///   plays once before any repeats; under repeat all each new round is a new permutation
///   (never starting with the item that just ended). Turning shuffle off restores the original
///   order, with items inserted meanwhile kept after their neighbours; the current item stays
///   current throughout.
/// - Under repeat all the queue still stops when a whole round failed (no endless error loop).
public struct PlayQueue: Sendable, Equatable {
    /// Seconds into an item after which `previous` restarts it instead of going back.
    public static let restartThreshold: Double = 3

    public private(set) var items: [QueueItem] { didSet { version = Self.nextVersion() } }
    /// Changes with every change to `items` (added, removed, moved, an item's state or duration),
    /// unique across queues: what was derived from the items (the socket's entries, the window's
    /// rows) is kept while it is the same, so an event costs the same with ten items or 100,000.
    public private(set) var version: Int
    /// Changes only when the items' order or what names them (id, URI, title) changes — not on
    /// a state or a duration: what shows the list (titles) is kept across item changes.
    public private(set) var layoutVersion: Int
    public private(set) var currentID: QueueItem.ID?
    /// The last index `index(of:)` found (checked before use): lookups of the current item, many
    /// per event, stay O(1) in a long queue.
    private let lookup = IndexHint()
    public var repeatMode: RepeatMode
    public private(set) var isShuffled = false
    /// The unshuffled order while shuffle is on (empty otherwise).
    private var originalOrder: [QueueItem.ID] = []
    private var random: SeededRandom

    /// A queue of `items` with no current item yet. `seed` makes shuffles reproducible.
    public init(_ items: [QueueItem] = [], repeatMode: RepeatMode = .off, seed: UInt64? = nil) {
        self.items = items
        self.version = Self.nextVersion()
        self.layoutVersion = self.version
        self.repeatMode = repeatMode
        self.random = seed.map { SeededRandom(seed: $0) } ?? SeededRandom()
        for i in self.items.indices where self.items[i].state == .current { self.items[i].state = .pending }
    }

    // MARK: Reading

    public var count: Int { items.count }
    public var isEmpty: Bool { items.isEmpty }

    public var currentIndex: Int? { currentID.flatMap(index(of:)) }

    public var current: QueueItem? { currentIndex.map { items[$0] } }

    public func index(of id: QueueItem.ID) -> Int? {
        if let hint = lookup.index(for: id), hint < items.count, items[hint].id == id { return hint }
        guard let found = items.firstIndex(where: { $0.id == id }) else { return nil }
        lookup.remember(id, at: found)
        return found
    }

    /// The queue's value: its items, order and modes (not `version`, not the lookup hint).
    public static func == (a: PlayQueue, b: PlayQueue) -> Bool {
        a.items == b.items && a.currentID == b.currentID && a.repeatMode == b.repeatMode && a.isShuffled == b.isShuffled
            && a.originalOrder == b.originalOrder && a.random == b.random
    }

    private mutating func layoutChanged() { layoutVersion = version }

    private static let versions = Mutex(0)
    private static func nextVersion() -> Int { versions.withLock { $0 += 1; return $0 } }

    public func item(_ id: QueueItem.ID) -> QueueItem? { index(of: id).map { items[$0] } }

    /// What `finishCurrent(.played)` would make current, without moving (gapless pre-roll).
    /// Under repeat one that is the current item itself.
    public var upcoming: QueueItem? {
        var copy = self
        return copy.advance(auto: true)
    }

    /// What a playlist panel shows.
    public var rows: [QueueRow] {
        let currentIndex = self.currentIndex
        return items.enumerated().map { i, item in
            QueueRow(id: item.id, index: i, title: item.displayTitle, duration: item.duration,
                     isCurrent: i == currentIndex, state: item.state,
                     failureMessage: item.state.error.map { Redactor.redactText($0.message) })
        }
    }

    // MARK: Editing

    /// Adds items at the end.
    public mutating func append(_ newItems: [QueueItem]) { insert(newItems, after: nil) }

    /// Inserts items right after the item `id` (in play order), or at the end when `id` is nil
    /// or not in the queue. Items keep their ids; an id already in the queue is not added twice.
    public mutating func insert(_ newItems: [QueueItem], after id: QueueItem.ID?) {
        var seen = Set(items.map(\.id))
        var fresh: [QueueItem] = []
        for var item in newItems where seen.insert(item.id).inserted {
            if item.state == .current { item.state = .pending }
            fresh.append(item)
        }
        guard !fresh.isEmpty else { return }
        let position = id.flatMap(index(of:)).map { $0 + 1 } ?? items.count
        items.insert(contentsOf: fresh, at: position)
        layoutChanged()
        if isShuffled {
            let originalPosition = id.flatMap { id in originalOrder.firstIndex(of: id) }.map { $0 + 1 } ?? originalOrder.count
            originalOrder.insert(contentsOf: fresh.map(\.id), at: originalPosition)
        }
    }

    /// Removes an item. When it was the current item, the item that followed it becomes current
    /// (none when it was the last). Returns whether the current item changed.
    @discardableResult
    public mutating func remove(id: QueueItem.ID) -> Bool {
        guard let i = index(of: id) else { return false }
        items.remove(at: i)
        layoutChanged()
        originalOrder.removeAll { $0 == id }
        guard id == currentID else { return false }
        currentID = nil
        if i < items.count { makeCurrent(i) }
        return true
    }

    /// Puts `item` in the place of the item `id` (a web page's video in the page's place): its
    /// id, and whether it is current, stay those of the place.
    public mutating func replace(id: QueueItem.ID, with item: QueueItem) {
        guard let i = index(of: id) else { return }
        var item = QueueItem(id: id, uri: item.uri, title: item.title, duration: item.duration, options: item.options,
                             state: items[i].state, arrival: item.arrival)
        if id == currentID { item.state = .current }
        items[i] = item
        layoutChanged()
    }

    /// Moves an item so that it ends up at `index` (clamped to the queue).
    public mutating func move(id: QueueItem.ID, to index: Int) {
        guard let from = self.index(of: id) else { return }
        let item = items.remove(at: from)
        items.insert(item, at: min(max(0, index), items.count))
        layoutChanged()
    }

    /// Removes every item but `id` (mpv's `playlist-clear` keeps the playing one), in one pass
    /// whatever the queue's length; returns the removed items' ids. `id` stays current if it was.
    public mutating func keepOnly(_ id: QueueItem.ID) -> [QueueItem.ID] {
        guard let i = index(of: id) else { return [] }
        let ids = items.map(\.id).filter { $0 != id }
        items = [items[i]]
        layoutChanged()
        if isShuffled { originalOrder = [id] }
        return ids
    }

    /// Empties the queue.
    public mutating func clear() {
        items.removeAll()
        layoutChanged()
        originalOrder.removeAll()
        currentID = nil
    }

    /// Updates what the player learnt about an item (its duration, a better title).
    public mutating func update(id: QueueItem.ID, title: String? = nil, duration: Double? = nil) {
        guard let i = index(of: id) else { return }
        if let title, items[i].title != title {
            items[i].title = title
            layoutChanged()
        }
        if let duration { items[i].duration = duration }
    }

    /// Sets an item's state directly (e.g. marking an item failed that was checked ahead of time).
    public mutating func setState(_ state: QueueItemState, for id: QueueItem.ID) {
        guard let i = index(of: id) else { return }
        items[i].state = state
        if state == .current { makeCurrent(i) } else if id == currentID { currentID = nil }
    }

    // MARK: Walking

    /// Makes the item at `index` current. Returns it, or nil (nothing changes) when out of range.
    @discardableResult
    public mutating func jump(to index: Int) -> QueueItem? {
        guard items.indices.contains(index) else { return nil }
        leaveCurrent(as: nil)
        makeCurrent(index)
        return items[index]
    }

    /// Makes the item `id` current. Returns it, or nil when it is not in the queue.
    @discardableResult
    public mutating func jump(to id: QueueItem.ID) -> QueueItem? {
        index(of: id).flatMap { jump(to: $0) }
    }

    /// The user's "next": the following item (wrapping under repeat all; repeat one is ignored).
    /// With no current item it starts at the first. Returns nil, and stays, at the end.
    @discardableResult
    public mutating func next() -> QueueItem? {
        guard let i = currentIndex else { return jump(to: 0) }
        if i + 1 < items.count { return jump(to: i + 1) }
        guard repeatMode == .all, !items.isEmpty else { return nil }
        leaveCurrent(as: nil)
        startNewRound()
        makeCurrent(0)
        return items[0]
    }

    /// The user's "previous" at `position` seconds into the current item: the current item again
    /// (`restarted`) when more than 3 s in or at the start of the queue, otherwise the item before
    /// (the last one under repeat all). nil when there is no current item.
    public mutating func previous(position: Double) -> (item: QueueItem, restarted: Bool)? {
        guard let i = currentIndex else { return nil }
        if position > Self.restartThreshold { return (items[i], true) }
        if i > 0 { return jump(to: i - 1).map { ($0, false) } }
        if repeatMode == .all && items.count > 1 { return jump(to: items.count - 1).map { ($0, false) } }
        return (items[i], true)
    }

    /// The automatic advance: marks the current item with `outcome` and makes the next one
    /// current by the repeat rules. Returns the new current item, or nil when the queue ended.
    @discardableResult
    public mutating func finishCurrent(_ outcome: ItemOutcome) -> QueueItem? {
        guard let i = currentIndex else { return nil }
        switch outcome {
        case .played: items[i].state = .played
        case .failed(let error): items[i].state = .failed(error)
        }
        return advance(auto: outcome == .played)
    }

    /// Turns shuffle on (the current item first, the rest in random order) or off (the original
    /// order back). The current item stays current.
    public mutating func setShuffle(_ on: Bool) {
        guard on != isShuffled else { return }
        if on {
            originalOrder = items.map(\.id)
            isShuffled = true
            shuffleKeepingCurrentFirst()
        } else {
            let byID = Dictionary(items.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            var restored = originalOrder.compactMap { byID[$0] }
            let kept = Set(originalOrder)
            restored += items.filter { !kept.contains($0.id) }
            items = restored
            layoutChanged()
            originalOrder = []
            isShuffled = false
        }
    }

    /// A new random order (the current item first), turning shuffle on when it was off (mpv's
    /// `playlist-shuffle`); `setShuffle(false)` restores the order from before the first shuffle.
    public mutating func reshuffle() {
        if isShuffled { shuffleKeepingCurrentFirst() } else { setShuffle(true) }
    }

    // MARK: Private

    /// Moves on from the current item. `auto` is the end of a successfully played item (repeat
    /// one applies); a failed item never repeats itself.
    private mutating func advance(auto: Bool) -> QueueItem? {
        guard let i = currentIndex else { return nil }
        if auto && repeatMode == .one {
            makeCurrent(i)
            return items[i]
        }
        if i + 1 < items.count {
            leaveCurrent(as: nil)
            makeCurrent(i + 1)
            return items[i + 1]
        }
        guard repeatMode != .off else {
            leaveCurrent(as: nil)
            currentID = nil
            return nil
        }
        // The end of a round. Stop if nothing in it played (every item failed).
        let everyOtherFailed = items.indices.allSatisfy { j in j == i ? true : items[j].state.error != nil }
        if !auto && everyOtherFailed {
            currentID = nil
            return nil
        }
        if repeatMode == .one {
            // A failed item under repeat one: move on, round the queue.
            leaveCurrent(as: nil)
            makeCurrent(0)
            return items[0]
        }
        leaveCurrent(as: nil)
        startNewRound()
        makeCurrent(0)
        return items[0]
    }

    /// A new round under repeat all: played marks are cleared (failures stay visible until the
    /// item is tried again) and a shuffled queue gets a new order that does not start with the
    /// item that just ended.
    private mutating func startNewRound() {
        for j in items.indices where items[j].state == .played { items[j].state = .pending }
        guard isShuffled, items.count > 1 else { return }
        let last = currentID ?? items[items.count - 1].id
        currentID = nil
        var generator = random  // not `&random` while `items` is being set: one access to self at a time
        items.shuffle(using: &generator)
        random = generator
        layoutChanged()
        if items[0].id == last {
            let swapWith = 1 + Int(random.next() % UInt64(items.count - 1))
            items.swapAt(0, swapWith)
        }
    }

    private mutating func shuffleKeepingCurrentFirst() {
        if let i = currentIndex {
            var rest = items
            let current = rest.remove(at: i)
            rest.shuffle(using: &random)
            items = [current] + rest
        } else {
            var shuffled = items
            shuffled.shuffle(using: &random)
            items = shuffled
        }
        layoutChanged()
    }

    /// The current item stops being current: `state`, or pending when it was merely current.
    private mutating func leaveCurrent(as state: QueueItemState?) {
        guard let i = currentIndex else { return }
        if let state { items[i].state = state } else if items[i].state == .current { items[i].state = .pending }
    }

    private mutating func makeCurrent(_ index: Int) {
        items[index].state = .current
        currentID = items[index].id
    }
}

/// `PlayQueue`'s one-entry memory of where an id was: shared by copies (each use checks it), never
/// part of the queue's value (equal queues stay equal).
final class IndexHint: Sendable, Equatable {
    private let last = Mutex<(id: QueueItem.ID, index: Int)?>(nil)

    func index(for id: QueueItem.ID) -> Int? { last.withLock { $0?.id == id ? $0?.index : nil } }
    func remember(_ id: QueueItem.ID, at index: Int) { last.withLock { $0 = (id, index) } }

    static func == (a: IndexHint, b: IndexHint) -> Bool { true }
}
