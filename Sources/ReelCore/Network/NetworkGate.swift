import Foundation

/// What the network lets the queue's current item do, and the state that decides it: the
/// desktop's view of the network, Reel's rule (`NetworkRule`: metered policy, cap), the items the
/// user chose to play anyway, and the current item's wait for a network (whether it had started,
/// whether it failed while offline, the generation that voids an old bound). A value the
/// sequencer holds and asks (`QueueSequencer+Network` carries out what it says: waits, loads,
/// failures); pure and table-tested through the sequencer on FakeEngine.
public struct NetworkGate: Sendable {
    /// The desktop's view of the network (`QueueSequencer.networkChanged`).
    public internal(set) var network = NetworkState.assumed
    public var rule = NetworkRule()
    /// Seconds an item started without a network waits for one before it fails (`network`).
    public var offlineWait: Double = 30
    /// Items the user chose to play despite the `block` policy ("Play anyway").
    var playAnyway: Set<QueueItem.ID> = []
    /// The last item the metered policy refused (what "Play anyway" plays).
    public internal(set) var lastRefusedID: QueueItem.ID?
    /// The current item has prerolled since it was loaded (an item that never did is bounded by
    /// `offlineWait` while it waits).
    var currentWasReady = false
    /// The current item failed while waiting for the network: it is loaded again (where it had
    /// got to) when the network returns.
    var failedWhileOffline = false
    /// Bumped whenever a wait for the network starts or ends: a bound armed before is void.
    var offlineGeneration = 0
    /// The metered cap last reported (`bitrate-cap` events only on change).
    private var reportedCap: Int?

    public init() {}

    /// What the rule says of `item` now.
    func verdict(for item: QueueItem) -> NetworkRule.Verdict {
        rule.verdict(for: item.uri, network: network, playAnyway: playAnyway.contains(item.id))
    }

    /// The cap on adaptive streams now (bits/s; nil: none).
    var cap: Int? { rule.bitrateCap(on: network) }

    /// The cap when it differs from the one last reported (then reported): `.some(nil)` when lifted.
    mutating func capToReport() -> Int?? {
        let cap = self.cap
        guard cap != reportedCap else { return nil }
        reportedCap = cap
        return .some(cap)
    }

    /// A new item is loaded: it has not started, nor failed offline.
    mutating func itemLoaded() {
        currentWasReady = false
        failedWhileOffline = false
    }

    /// A wait starts or ends: bounds armed before are void. Returns the new generation.
    @discardableResult
    mutating func newGeneration() -> Int {
        offlineGeneration += 1
        return offlineGeneration
    }
}
