/// `reel check --shard K/N`: which of the expanded inputs this process checks. Deterministic
/// (item i goes to shard i mod N + 1, or as a `CheckPlan` weighted them), so N processes on as
/// many machines check every item once, and `reel check merge` puts their reports back in the
/// order one run would have. `--shard auto` reads K and N from the fan-out's variables.
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

    /// The variables `--shard auto` reads, in the order it tries them: an index (its base) and a count.
    public static let sources: [(index: String, base: Int, count: [String], runner: String)] = [
        // A Kubernetes Indexed Job exports the index; its completions are given as an env var of
        // the pod's (`JOB_COMPLETIONS`, docs/QA.md's manifest), as the API does not export them.
        ("JOB_COMPLETION_INDEX", 0, ["JOB_COMPLETIONS", "REEL_SHARD_COUNT"], "Kubernetes Indexed Job"),
        ("CI_NODE_INDEX", 1, ["CI_NODE_TOTAL"], "GitLab CI parallel"),
        ("AWS_BATCH_JOB_ARRAY_INDEX", 0, ["AWS_BATCH_JOB_ARRAY_SIZE", "REEL_SHARD_COUNT"], "AWS Batch array job"),
        // GNU parallel numbers its jobs (`PARALLEL_SEQ`) but exports no count of them.
        ("PARALLEL_SEQ", 1, ["REEL_SHARD_COUNT"], "GNU parallel"),
        ("REEL_SHARD_INDEX", 1, ["REEL_SHARD_COUNT"], "REEL_SHARD_INDEX"),
    ]

    public struct AutoError: Error, CustomStringConvertible {
        public var description: String
    }

    /// `--shard auto`: K/N from the first of `sources` whose index is set, and where it came from.
    public static func auto(environment: [String: String]) throws -> (shard: CheckShard, from: String) {
        for s in sources {
            guard let text = environment[s.index], !text.isEmpty else { continue }
            guard let i = Int(text.trimmingCharacters(in: .whitespaces)) else { throw AutoError(description: "\(s.index)=\(text.prefix(20)) is not a number") }
            guard let countName = s.count.first(where: { environment[$0]?.isEmpty == false }), let n = Int(environment[countName] ?? "") else {
                throw AutoError(description: "\(s.index) is set (\(s.runner)) but not the shard count: set \(s.count.joined(separator: " or "))")
            }
            let k = i - s.base + 1
            guard let shard = CheckShard("\(k)/\(n)") else {
                throw AutoError(description: "\(s.index)=\(i) with \(countName)=\(n) is not a shard (\(s.runner))")
            }
            return (shard, "\(s.index)=\(i), \(countName)=\(n) (\(s.runner))")
        }
        throw AutoError(description: "no fan-out variable is set (" + sources.map(\.index).joined(separator: ", ") + ")")
    }
}
