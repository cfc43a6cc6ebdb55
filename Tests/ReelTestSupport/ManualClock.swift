import ReelCore

/// A `SequencerClock` that moves only when a test says so: `soon` work runs at the next
/// `advance`, `after` work once the clock has advanced past its time. Back-offs are then
/// tested without waiting for them.
@MainActor
public final class ManualClock: SequencerClock {
    public private(set) var now: Double = 0
    private var pending: [(at: Double, order: Int, work: @MainActor () -> Void)] = []
    private var order = 0

    public init() {}

    /// When work is waiting, the delays it was scheduled with, in the order of their times.
    public var pendingDelays: [Double] { pending.map { $0.at - now }.sorted() }

    public func soon(_ work: @escaping @Sendable @MainActor () -> Void) { schedule(at: now, work) }
    public func after(_ seconds: Double, _ work: @escaping @Sendable @MainActor () -> Void) { schedule(at: now + max(0, seconds), work) }

    /// Moves the clock on by `seconds`, running what falls due in time order (including work that
    /// the work it runs schedules within the interval).
    public func advance(by seconds: Double = 0) {
        let end = now + seconds
        while let next = pending.filter({ $0.at <= end }).min(by: { ($0.at, $0.order) < ($1.at, $1.order) }) {
            pending.removeAll { $0.order == next.order }
            now = next.at
            next.work()
        }
        now = end
    }

    private func schedule(at time: Double, _ work: @escaping @MainActor () -> Void) {
        order += 1
        pending.append((time, order, work))
    }
}
