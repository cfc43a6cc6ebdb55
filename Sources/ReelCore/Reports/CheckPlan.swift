import Foundation

/// `reel check plan LIST --shards N [--weights REPORT]`: which items each shard checks, as JSON a
/// workflow engine fans out (Argo's `withParam`), balanced by what each item cost in a previous
/// report (its `checkSeconds`, by input) rather than by position: the longest first, each to the
/// shard with the least so far. `reel check --plan FILE --shard K/N` checks shard K's items.
public struct CheckPlan: Sendable, Equatable {
    public struct Shard: Sendable, Equatable {
        /// 1-based.
        public var shard: Int
        /// Indices in the expanded input order.
        public var items: [Int]
        /// The weight the plan gave them, in seconds.
        public var seconds: Double
    }

    public var shards: [Shard]
    /// The expanded inputs, in order (redacted), so that a plan is checked against its list.
    public var inputs: [String]
    /// Where the weights came from: "report" (a previous run) or "equal".
    public var weighting: String

    /// - Parameter weights: seconds per input (a previous report's); the others take their median (1 s when none).
    ///   Keys are `weightKeys` (an input given twice, or an HLS master's renditions, is told apart by its occurrence).
    public static func make(inputs: [String], shards n: Int, weights: [String: Double]) -> CheckPlan {
        let n = max(1, min(n, 10_000))
        let keys = weightKeys(inputs.map(Redactor.redactURL))
        let known = keys.compactMap { weights[$0] }.sorted()
        let fallback = known.isEmpty ? 1 : known[known.count / 2]
        let cost = keys.map { max(0.001, weights[$0] ?? fallback) }
        var shards = (1...n).map { Shard(shard: $0, items: [], seconds: 0) }
        // Longest processing time first: the heaviest item to the lightest shard (ties: the lower shard).
        for i in inputs.indices.sorted(by: { cost[$0] != cost[$1] ? cost[$0] > cost[$1] : $0 < $1 }) {
            let k = shards.indices.min { shards[$0].seconds != shards[$1].seconds ? shards[$0].seconds < shards[$1].seconds : $0 < $1 }!
            shards[k].items.append(i)
            shards[k].seconds += cost[i]
        }
        for k in shards.indices { shards[k].items.sort() }
        return CheckPlan(shards: shards, inputs: inputs.map(Redactor.redactURL), weighting: known.isEmpty ? "equal" : "report")
    }

    /// The key of each input for the weights: the input, then "input #2", "input #3"… for its later occurrences.
    public static func weightKeys(_ inputs: [String]) -> [String] {
        var seen: [String: Int] = [:]
        return inputs.map { input in
            seen[input, default: 0] += 1
            return seen[input]! == 1 ? input : "\(input) #\(seen[input]!)"
        }
    }

    /// What each item of a previous report cost (`checkSeconds`), by `weightKeys` of its inputs in index order.
    public static func weights(from report: CheckReport) -> [String: Double] {
        let items = report.items.sorted { $0.index < $1.index }
        return Dictionary(zip(weightKeys(items.map(\.input)), items.map(\.checkSeconds)), uniquingKeysWith: { $1 })
    }

    /// The shard that checks item `index` (1-based), nil when the plan has none for it.
    public func shard(of index: Int) -> Int? { shards.first { $0.items.contains(index) }?.shard }

    public var json: JSONValue {
        .object([("reel", .string("check-plan")), ("version", .int(1)), ("weighting", .string(weighting)),
                 ("count", .int(shards.count)), ("inputs", .array(inputs.map { .string($0) })),
                 ("shards", .array(shards.map { s in
                     .object([("shard", .string("\(s.shard)/\(shards.count)")), ("index", .int(s.shard)), ("items", .array(s.items.map { .int($0) })),
                              ("seconds", .double((s.seconds * 1000).rounded() / 1000))])
                 }))])
    }

    public static func decode(_ data: Data) throws -> CheckPlan {
        guard let o = try? JSONSerialization.jsonObject(with: data) as? [String: Any], o["reel"] as? String == "check-plan",
              (o["version"] as? NSNumber)?.intValue == 1, let list = o["shards"] as? [[String: Any]] else {
            throw CheckReport.DecodingError(description: "not a reel check plan (version 1)")
        }
        let shards = try list.map { s -> Shard in
            guard let k = (s["index"] as? NSNumber)?.intValue, let items = s["items"] as? [NSNumber] else {
                throw CheckReport.DecodingError(description: "a plan's shard without index or items")
            }
            return Shard(shard: k, items: items.map(\.intValue), seconds: (s["seconds"] as? NSNumber)?.doubleValue ?? 0)
        }
        guard shards.map(\.shard) == Array(1...max(1, shards.count)) else { throw CheckReport.DecodingError(description: "the plan's shards are not 1…N in order") }
        return CheckPlan(shards: shards, inputs: o["inputs"] as? [String] ?? [], weighting: o["weighting"] as? String ?? "?")
    }
}
