import Foundation
@testable import ReelCore
import XCTest

/// Fanning `reel check` out: `--shard auto` under each runner's variables, `reel check plan`'s
/// weighting by a previous report, and `merge` of a retried shard.
final class CheckPlanTests: XCTestCase {
    func testShardAutoUnderEachRunner() throws {
        let table: [([String: String], String, String)] = [
            (["JOB_COMPLETION_INDEX": "0", "JOB_COMPLETIONS": "4"], "1/4", "Kubernetes Indexed Job"),
            (["JOB_COMPLETION_INDEX": "3", "REEL_SHARD_COUNT": "4"], "4/4", "Kubernetes Indexed Job"),
            (["CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "5"], "2/5", "GitLab CI parallel"),
            (["AWS_BATCH_JOB_ARRAY_INDEX": "9", "AWS_BATCH_JOB_ARRAY_SIZE": "10"], "10/10", "AWS Batch array job"),
            (["PARALLEL_SEQ": "3", "REEL_SHARD_COUNT": "3"], "3/3", "GNU parallel"),
            (["REEL_SHARD_INDEX": "1", "REEL_SHARD_COUNT": "1"], "1/1", "REEL_SHARD_INDEX"),
            // The first runner's variables win over a later one's.
            (["CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "2", "REEL_SHARD_INDEX": "2", "REEL_SHARD_COUNT": "2"], "1/2", "GitLab CI parallel"),
            (["JOB_COMPLETION_INDEX": "", "PARALLEL_SEQ": "2", "REEL_SHARD_COUNT": "4"], "2/4", "GNU parallel"),
        ]
        for (env, shard, runner) in table {
            let (got, from) = try CheckShard.auto(environment: env)
            XCTAssertEqual(got.description, shard, "\(env)")
            XCTAssertTrue(from.contains(runner), from)
        }
        let failing: [([String: String], String)] = [
            ([:], "no fan-out variable is set"),
            (["JOB_COMPLETION_INDEX": "2"], "set JOB_COMPLETIONS or REEL_SHARD_COUNT"),
            (["PARALLEL_SEQ": "2", "PARALLEL_JOBSLOTS": "4"], "set REEL_SHARD_COUNT"),
            (["CI_NODE_INDEX": "x", "CI_NODE_TOTAL": "2"], "is not a number"),
            (["CI_NODE_INDEX": "3", "CI_NODE_TOTAL": "2"], "is not a shard"),
            (["CI_NODE_INDEX": "0", "CI_NODE_TOTAL": "2"], "is not a shard"),
            (["JOB_COMPLETION_INDEX": "4", "JOB_COMPLETIONS": "4"], "is not a shard"),
        ]
        for (env, message) in failing {
            XCTAssertThrowsError(try CheckShard.auto(environment: env), "\(env)") { XCTAssertTrue("\($0)".contains(message), "\($0)") }
        }
    }

    /// Weighted by a previous report, the longest items are spread first: shards end together.
    func testAPlanWeightedByAPreviousReport() throws {
        let inputs = ["a.mp4", "b.mp4", "c.mp4", "d.mp4", "e.mp4", "f.mp4"]
        let weights = ["a.mp4": 60.0, "b.mp4": 1, "c.mp4": 1, "d.mp4": 30, "e.mp4": 30, "f.mp4": 2]
        let plan = CheckPlan.make(inputs: inputs, shards: 2, weights: weights)
        XCTAssertEqual(plan.weighting, "report")
        XCTAssertEqual(plan.shards.map(\.items), [[0, 5], [1, 2, 3, 4]], "60+2 against 1+1+30+30")
        XCTAssertEqual(plan.shards.map(\.seconds), [62, 62])
        // By position (`--shard K/N` alone) the same list is 92 s against 32 s.
        let byModulo = (1...2).map { k in inputs.indices.filter { CheckShard(index: k, count: 2).owns($0) }.map { weights[inputs[$0]]! }.reduce(0, +) }
        XCTAssertEqual(byModulo, [91, 33])

        // Without weights: equal, the plan is a balanced split; an unknown item takes the median.
        XCTAssertEqual(CheckPlan.make(inputs: inputs, shards: 3, weights: [:]).shards.map(\.items), [[0, 3], [1, 4], [2, 5]])
        XCTAssertEqual(CheckPlan.make(inputs: inputs, shards: 3, weights: [:]).weighting, "equal")
        let partial = CheckPlan.make(inputs: ["new.mp4", "a.mp4", "b.mp4", "c.mp4"], shards: 2, weights: ["a.mp4": 10, "b.mp4": 2, "c.mp4": 4])
        XCTAssertEqual(partial.shards.map(\.seconds), [10, 10], "new.mp4 weighs the median, 4 s: 10 | 4+4+2")
        // More shards than items: the extra shards are empty, not missing.
        XCTAssertEqual(CheckPlan.make(inputs: ["a"], shards: 3, weights: [:]).shards.map(\.items), [[0], [], []])
    }

    func testTheWeightsOfAReportByOccurrence() {
        var items: [CheckReport.Item] = []
        for (i, (input, s)) in [("m.m3u8", 5.0), ("x.mp4", 1), ("m.m3u8", 7)].enumerated() {
            var item = CheckReport.Item(index: i, input: input, uri: input, title: "t")
            item.checkSeconds = s
            items.append(item)
        }
        let w = CheckPlan.weights(from: CheckReport(items: items.reversed(), positions: []))
        XCTAssertEqual(w, ["m.m3u8": 5, "x.mp4": 1, "m.m3u8 #2": 7], "a master's renditions (one input, several items) told apart by their order")
        XCTAssertEqual(CheckPlan.weightKeys(["a", "b", "a", "a"]), ["a", "b", "a #2", "a #3"])
    }

    func testThePlansJSONReadsBackAndRedacts() throws {
        let plan = CheckPlan.make(inputs: ["https://h/a.m3u8?token=SECRET", "b.mp4", "c.mp4"], shards: 2, weights: [:])
        let text = plan.json.serialized()
        XCTAssertFalse(text.contains("SECRET"))
        let o = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        XCTAssertEqual((o["shards"] as? [[String: Any]])?.map { $0["shard"] as? String }, ["1/2", "2/2"], "what Argo's withParam hands each pod")
        let back = try CheckPlan.decode(Data(text.utf8))
        XCTAssertEqual(back.shards.map(\.items), plan.shards.map(\.items))
        XCTAssertEqual(back.shard(of: 2), plan.shard(of: 2))
        for bad in [#"{"reel":"check"}"#, #"{"reel":"check-plan","version":1,"shards":[{"index":2,"items":[]}]}"#, "[]"] {
            XCTAssertThrowsError(try CheckPlan.decode(Data(bad.utf8)), bad)
        }
    }

    /// A retried shard's item is in two reports: the later one's findings stand, and the merged
    /// report lists it (and reads that back).
    func testAMergeOfARetriedShardKeepsTheLaterReport() throws {
        func report(_ at: TimeInterval, error: Bool) -> CheckReport {
            var item = CheckReport.Item(index: 3, input: "/m/a.mp4", uri: "file:///m/a.mp4", title: "a")
            if error { item.error = PlaybackError(kind: .network, message: "the pod was evicted") }
            return CheckReport(items: [item], positions: [], generated: Date(timeIntervalSince1970: at))
        }
        for order in [[report(100, error: true), report(200, error: false)], [report(200, error: false), report(100, error: true)]] {
            let merged = try CheckReport.merged(order)
            XCTAssertEqual(merged.items.count, 1)
            XCTAssertTrue(merged.items[0].ok, "the retry's (later) report stands, whichever came first")
            XCTAssertEqual(merged.retried.map(\.index), [3])
            XCTAssertEqual(merged.retried[0].kept, Date(timeIntervalSince1970: 200))
            let back = try CheckReport.decode(Data(merged.jsonText.utf8))
            XCTAssertEqual(back.retried, merged.retried)
        }
        var other = report(300, error: false)
        other.items[0].uri = "file:///m/b.mp4"
        XCTAssertThrowsError(try CheckReport.merged([report(100, error: false), other])) { XCTAssertTrue("\($0)".contains("shards of different lists")) }
    }
}
