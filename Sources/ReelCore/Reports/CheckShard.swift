/// `reel check --shard K/N`: which of the expanded inputs this process checks. Deterministic
/// (item i goes to shard i mod N + 1), so N processes on as many machines check every item once,
/// and `reel check merge` puts their reports back in the order one run would have.
public struct CheckShard: Sendable, Equatable, CustomStringConvertible {
    /// 1-based.
    public var index: Int
    public var count: Int

    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, n <= 10_000, (1...n).contains(k) else { return nil }
        index = k
        count = n
    }

    public init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// Whether the item at `position` (0-based, in the expanded input order) is this shard's.
    public func owns(_ position: Int) -> Bool { position % count == index - 1 }

    public var description: String { "\(index)/\(count)" }
}
