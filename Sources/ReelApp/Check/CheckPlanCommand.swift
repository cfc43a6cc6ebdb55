import ArgumentParser
import Foundation
import ReelCore

/// `reel check plan LIST… --shards N [--weights REPORT]`: prints which items each of N shards
/// checks (`CheckPlan`, JSON on stdout) for a workflow engine to fan out; each shard then runs
/// `reel check LIST… --plan plan.json --shard K/N`. The inputs are expanded as `reel check`
/// expands them (playlists in place, `--renditions all`), through the gateway's credentials.
/// (`CheckCommand` hands over when its first input is `plan`, as it does for `merge`.)
struct CheckPlanCommand {
    var inputs: [String]
    var shards: Int
    /// A previous run's report.json, or its directory: what each item cost.
    var weights: String?
    var protected: ProtectedStreamOptions
    var renditions: Bool

    func run() throws {
        guard !inputs.isEmpty else {
            Log.say("give the FILEs, URLs or playlists to plan", prefix: "reel check plan")
            throw ExitCode(2)
        }
        var weightsBySeconds: [String: Double] = [:]
        if let weights {
            var url = URL(fileURLWithPath: weights)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
                url.appendPathComponent("report.json")
            }
            do {
                weightsBySeconds = CheckPlan.weights(from: try CheckReport.decode(Data(contentsOf: url)))
            } catch {
                Log.say("--weights: \(url.path): \(error)", prefix: "reel check plan")
                throw ExitCode(2)
            }
        }
        let router = GatewayRouter(settings: try protected.settings(inputs: inputs))
        defer { router.shutdown() }
        let entries = CheckInputs.expand(inputs, router: router, renditions: renditions)
        let plan = CheckPlan.make(inputs: entries.map(\.input), shards: shards, weights: weightsBySeconds)
        FileHandle.standardOutput.write(Data((plan.json.serialized() + "\n").utf8))
    }
}
