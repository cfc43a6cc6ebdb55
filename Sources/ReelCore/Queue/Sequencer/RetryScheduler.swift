/// When a failed network item is loaded again, and where it resumes: `RetryPolicy`'s numbers
/// applied to one item at a time. Pure: the sequencer asks it on every failure, and runs the plan
/// with its clock.
///
/// A retry resumes where the item had got to when it was seekable, not live and more than 1 s in
/// (or where an earlier retry meant to resume, if it failed before getting further). Any load that
/// is not a retry (the user's next, the queue moving on) voids the retries planned before it.
public struct RetryScheduler: Sendable {
    public var policy: RetryPolicy
    /// The item retried, its retries so far, and where its next load resumes.
    public private(set) var item: QueueItem.ID?
    public private(set) var attempts = 0
    public private(set) var resumeAt: Double?
    /// Bumped by every load that is not a retry.
    public private(set) var generation = 0

    /// Another load of `item` after `delay`; void unless `generation` is still the scheduler's.
    public struct Plan: Equatable, Sendable {
        public var item: QueueItem.ID
        public var attempt: Int
        public var delay: Double
        public var generation: Int
    }

    public init(policy: RetryPolicy = RetryPolicy()) {
        self.policy = policy
    }

    /// The retry number another try of `id` would be, or nil when this failure is final.
    public func nextAttempt(after error: PlaybackError, item id: QueueItem.ID, isNetworkItem: Bool) -> Int? {
        let attempt = (item == id ? attempts : 0) + 1
        return policy.shouldRetry(error, failures: attempt, isNetworkItem: isNetworkItem) ? attempt : nil
    }

    /// Plans another load of `id` after `error`, or nil when the failure is final.
    /// - Parameters: position, seekable, live: where the engine had got to, and what it found.
    public mutating func plan(after error: PlaybackError, item id: QueueItem.ID, isNetworkItem: Bool,
                              position: Double, seekable: Bool, live: Bool) -> Plan? {
        guard let attempt = nextAttempt(after: error, item: id, isNetworkItem: isNetworkItem) else { return nil }
        let earlier = item == id ? resumeAt : nil
        item = id
        attempts = attempt
        resumeAt = seekable && !live && position > 1 ? position : earlier
        return Plan(item: id, attempt: attempt, delay: policy.delay(beforeRetry: attempt), generation: generation)
    }

    /// Where `id` should resume when it is loaded again for another reason than a failure worth a
    /// retry (it failed while waiting for the network): no attempt is counted.
    public mutating func noteResumePosition(for id: QueueItem.ID, position: Double, seekable: Bool, live: Bool) {
        let earlier = item == id ? resumeAt : nil
        if item != id { attempts = 0 }
        item = id
        resumeAt = seekable && !live && position > 1 ? position : earlier
    }

    public func isStillWanted(_ plan: Plan) -> Bool { plan.generation == generation && plan.item == item }

    /// A load that is not a retry: retries planned before it are void, counts start again.
    public mutating func itemLoaded() {
        generation += 1
        item = nil
        attempts = 0
        resumeAt = nil
    }

    /// Where a retried `id`, ready again, should seek to (once).
    public mutating func takeResumePosition(for id: QueueItem.ID) -> Double? {
        guard item == id, let at = resumeAt else { return nil }
        resumeAt = nil
        return at
    }
}
