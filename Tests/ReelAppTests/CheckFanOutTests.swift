import Foundation
import ReelCore
import ReelTestSupport
import XCTest

/// `reel check` fanned out as the runners fan it out: `--shard auto` under each runner's
/// variables and under GNU parallel, a plan weighted by a previous report, and the Kubernetes
/// Indexed Job and Argo Workflow of docs/QA.md, read as YAML (python3-yaml) and their commands
/// run pod by pod, as the controllers would run them, against one run of the whole list.
final class CheckFanOutTests: XCTestCase {
    private var inputs: [String] {
        [TestMedia.path("clip2s.mp4"), TestMedia.path("empty.mp4"), TestMedia.path("gapless-01.mp4"), TestMedia.path("notmedia.mp4"),
         TestMedia.path("gapless-02.mp4"), TestMedia.path("tone3s.m4a"), TestMedia.path("color10s.mp4")]
    }

    private var reelDirectory: String { (ProcessRunner.reelExecutable as NSString).deletingLastPathComponent }

    private func check(_ extra: [String], report: URL, environment: [String: String] = [:]) -> ProcessRunner.Result {
        ProcessRunner.run(ProcessRunner.reelExecutable, ["check", "--at", "50%", "--report", report.path] + extra + inputs, timeout: 180, environment: environment)
    }

    /// Items, verdicts, errors and frames: what must not change between one run and merged shards.
    private func essence(_ report: URL) throws -> [String] {
        try CheckReport.decode(Data(contentsOf: report.appendingPathComponent("report.json"))).items.map { i in
            "\(i.index) \(i.title) ok=\(i.ok) \(i.error?.code ?? "-") "
                + i.frames.map { "\($0.requested)@\($0.time.map { String(format: "%.3f", $0) } ?? "-"):\($0.file ?? "-")" }.joined(separator: ",")
        }
    }

    private func shardItems(_ report: URL) throws -> [Int] {
        try CheckReport.decode(Data(contentsOf: report.appendingPathComponent("report.json"))).items.map(\.index)
    }

    /// Each runner's variables give the shard they mean (stderr says where it came from), and
    /// the shards cover the list once.
    func testShardAutoUnderEachRunnersVariables() throws {
        TestMedia.ensureGenerated()
        let dir = TestMedia.temporaryDirectory("reel-shard-auto")
        defer { try? FileManager.default.removeItem(at: dir) }
        let runners: [(String, (Int) -> [String: String])] = [
            ("Kubernetes Indexed Job", { ["JOB_COMPLETION_INDEX": "\($0 - 1)", "JOB_COMPLETIONS": "3"] }),
            ("GitLab CI parallel", { ["CI_NODE_INDEX": "\($0)", "CI_NODE_TOTAL": "3"] }),
            ("AWS Batch array job", { ["AWS_BATCH_JOB_ARRAY_INDEX": "\($0 - 1)", "AWS_BATCH_JOB_ARRAY_SIZE": "3"] }),
            ("REEL_SHARD_INDEX", { ["REEL_SHARD_INDEX": "\($0)", "REEL_SHARD_COUNT": "3"] }),
        ]
        for (runner, variables) in runners {
            var seen: [Int] = []
            for k in 1...3 {
                let report = dir.appendingPathComponent("\(runner.prefix(6))-\(k)")
                let r = check(["--shard", "auto"], report: report, environment: variables(k))
                XCTAssertTrue([0, 1].contains(r.status), "\(runner) \(k): \(r.stderr)")
                XCTAssertTrue(r.stderr.contains("shard \(k)/3 from") && r.stderr.contains(runner), "\(runner): \(r.stderr)")
                let items = try shardItems(report)
                XCTAssertEqual(items, Array(stride(from: k - 1, to: inputs.count, by: 3)), runner)
                seen += items
            }
            XCTAssertEqual(seen.sorted(), Array(inputs.indices), runner)
        }
        // Set but incomplete: a usage error naming what is missing, nothing checked.
        let r = check(["--shard", "auto"], report: dir.appendingPathComponent("none"), environment: ["JOB_COMPLETION_INDEX": "1"])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains("set JOB_COMPLETIONS or REEL_SHARD_COUNT"), r.stderr)
    }

    /// GNU parallel as docs/QA.md runs it: `-N0` jobs numbered by PARALLEL_SEQ, the count given.
    func testShardAutoUnderGNUParallelMergesToTheWholeRun() throws {
        TestMedia.ensureGenerated()
        let dir = TestMedia.temporaryDirectory("reel-shard-parallel")
        defer { try? FileManager.default.removeItem(at: dir) }
        let whole = dir.appendingPathComponent("whole")
        XCTAssertEqual(check([], report: whole).status, 1)
        let r = ProcessRunner.run("/usr/bin/parallel", ["-N0", "-j3", ProcessRunner.reelExecutable, "check", "--shard", "auto", "--at", "50%",
                                                        "--report", dir.path + "/shard{#}"] + inputs + [":::", "1", "2", "3"],
                                  timeout: 300, environment: ["REEL_SHARD_COUNT": "3"])
        XCTAssertEqual(r.status, 2, "parallel's status is the number of failed jobs: each shard has a failed item: \(r.stderr)")
        for k in 1...3 { XCTAssertTrue(r.stderr.contains("shard \(k)/3 from PARALLEL_SEQ=\(k)"), r.stderr) }
        let merged = dir.appendingPathComponent("merged")
        let m = ProcessRunner.run(ProcessRunner.reelExecutable, ["check", "merge"] + (1...3).map { dir.path + "/shard\($0)" } + ["--report", merged.path], timeout: 60)
        XCTAssertEqual(m.status, 1, m.stderr)
        XCTAssertEqual(try essence(merged), try essence(whole))
    }

    /// A plan from a previous report gives the long item a shard of its own; its shards checked
    /// with --plan and merged are the whole run.
    func testAPlanWeightedByAPreviousReport() throws {
        TestMedia.ensureGenerated()
        let dir = TestMedia.temporaryDirectory("reel-plan")
        defer { try? FileManager.default.removeItem(at: dir) }
        let whole = dir.appendingPathComponent("whole")
        XCTAssertEqual(check([], report: whole).status, 1)
        let previous = try CheckReport.decode(Data(contentsOf: whole.appendingPathComponent("report.json")))
        let planned = ProcessRunner.run(ProcessRunner.reelExecutable, ["check", "plan"] + inputs + ["--shards", "2", "--weights", whole.path], timeout: 60)
        XCTAssertEqual(planned.status, 0, planned.stderr)
        let plan = try CheckPlan.decode(Data(planned.stdout.utf8))
        XCTAssertEqual(plan.weighting, "report")
        XCTAssertEqual(plan.inputs.count, inputs.count)
        // The heaviest item (by the previous run) is where the plan's rule puts it, and the shards'
        // weights are the previous run's seconds.
        let seconds = previous.items.map(\.checkSeconds)
        let heaviest = seconds.indices.max { seconds[$0] < seconds[$1] }!
        XCTAssertEqual(plan.shard(of: heaviest), 1, "the longest first, to the first shard")
        for s in plan.shards {
            XCTAssertEqual(s.seconds, s.items.map { max(0.001, seconds[$0]) }.reduce(0, +), accuracy: 0.01)
        }
        let file = dir.appendingPathComponent("plan.json")
        try Data(planned.stdout.utf8).write(to: file)
        for k in 1...2 {
            let report = dir.appendingPathComponent("shard\(k)")
            let r = check(["--plan", file.path, "--shard", "\(k)/2"], report: report)
            XCTAssertTrue([0, 1].contains(r.status), r.stderr)
            XCTAssertEqual(try shardItems(report), plan.shards[k - 1].items)
        }
        let merged = dir.appendingPathComponent("merged")
        XCTAssertEqual(ProcessRunner.run(ProcessRunner.reelExecutable, ["check", "merge", dir.path + "/shard1", dir.path + "/shard2", "--report", merged.path], timeout: 60).status, 1)
        XCTAssertEqual(try essence(merged), try essence(whole))
        // A plan for another list is refused, not half-followed.
        let other = ProcessRunner.run(ProcessRunner.reelExecutable, ["check", "--plan", file.path, "--shard", "1/2", "--report", dir.path + "/x", inputs[0]], timeout: 60)
        XCTAssertEqual(other.status, 2)
        XCTAssertTrue(other.stderr.contains("the plan is for 7 items, the inputs expand to 1"), other.stderr)
    }

    // MARK: docs/QA.md's manifests

    /// The YAML documents of docs/QA.md's ```yaml blocks, as JSON objects.
    private func manifests() throws -> [[String: Any]] {
        let script = """
        import json, re, sys, yaml
        text = open(sys.argv[1]).read()
        docs = [d for block in re.findall(r"```yaml\\n(.*?)```", text, re.S) for d in yaml.safe_load_all(block)]
        json.dump(docs, sys.stdout)
        """
        let r = ProcessRunner.run("/usr/bin/python3", ["-c", script, TestMedia.packageRoot.appendingPathComponent("docs/QA.md").path], timeout: 30)
        XCTAssertEqual(r.status, 0, "python3-yaml reads docs/QA.md's YAML: \(r.stderr)")
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
    }

    /// A pod's shell command with the cluster's paths put where this test keeps them.
    private func run(_ command: String, out: URL, catalogue: URL, environment: [String: String] = [:]) -> ProcessRunner.Result {
        let local = command.replacingOccurrences(of: "/catalogue/catalogue.m3u8", with: catalogue.path).replacingOccurrences(of: "/out/", with: out.path + "/")
        return ProcessRunner.run("/bin/sh", ["-c", local], timeout: 300,
                                 environment: environment.merging(["PATH": reelDirectory + ":/usr/bin:/bin"]) { a, _ in a })
    }

    private func catalogue(in dir: URL) throws -> URL {
        let list = dir.appendingPathComponent("catalogue.m3u8")
        try ("#EXTM3U\n" + inputs.map { "\($0)\n" }.joined()).write(to: list, atomically: true, encoding: .utf8)
        return list
    }

    private func path(_ object: Any?, _ keys: [Any]) -> Any? {
        keys.reduce(object) { o, k in
            if let i = k as? Int { return (o as? [Any]).flatMap { $0.indices.contains(i) ? $0[i] : nil } }
            return (o as? [String: Any])?[k as! String]
        }
    }

    func testTheKubernetesIndexedJobOfTheDocsChecksEveryItemOnce() throws {
        TestMedia.ensureGenerated()
        let dir = TestMedia.temporaryDirectory("reel-k8s")
        defer { try? FileManager.default.removeItem(at: dir) }
        let jobs = try manifests().filter { $0["kind"] as? String == "Job" }
        XCTAssertEqual(jobs.count, 2)
        let job = try XCTUnwrap(jobs.first { path($0, ["spec", "completionMode"]) as? String == "Indexed" })
        let merge = try XCTUnwrap(jobs.first { path($0, ["metadata", "name"]) as? String == "reel-check-merge" })
        let completions = try XCTUnwrap(path(job, ["spec", "completions"]) as? Int)
        let container = try XCTUnwrap(path(job, ["spec", "template", "spec", "containers", 0]) as? [String: Any])
        let env = Dictionary(uniqueKeysWithValues: (container["env"] as? [[String: Any]] ?? []).map { ($0["name"] as! String, "\($0["value"]!)") })
        XCTAssertEqual(env["JOB_COMPLETIONS"], "\(completions)", "the pods are told the count the Job has")
        XCTAssertEqual(container["command"] as? [String], ["sh", "-c"])
        let command = try XCTUnwrap((container["args"] as? [String])?.first)
        XCTAssertTrue(command.contains("reel check") && command.contains("--shard auto"), command)
        let mergeCommand = try XCTUnwrap((path(merge, ["spec", "template", "spec", "containers", 0, "args"]) as? [String])?.first)

        // One run of the whole list, with the manifests' options (the defaults).
        let whole = dir.appendingPathComponent("whole")
        XCTAssertEqual(ProcessRunner.run(ProcessRunner.reelExecutable, ["check", "--quiet", "--report", whole.path] + inputs, timeout: 180).status, 1)
        let out = dir.appendingPathComponent("out", isDirectory: true)
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let list = try catalogue(in: dir)
        // The controller starts one pod per index; each checks its shard and succeeds (a failed
        // item is the merge's verdict). Pod 1 is evicted and retried: it runs again, into the
        // same directory, which then holds the retry's report.
        for index in Array(0..<completions) + [1] {
            let pod = run(command, out: out, catalogue: list, environment: env.merging(["JOB_COMPLETION_INDEX": "\(index)"]) { a, _ in a })
            XCTAssertEqual(pod.status, 0, "pod \(index): \(pod.stderr)")
            XCTAssertEqual(try shardItems(out.appendingPathComponent("shard-\(index)")), Array(stride(from: index, to: inputs.count, by: completions)))
        }
        let merged = run(mergeCommand, out: out, catalogue: list)
        XCTAssertEqual(merged.status, 1, "the list has failed items: the merge says so: \(merged.stderr)")
        XCTAssertEqual(try essence(out.appendingPathComponent("report")), try essence(whole))
        XCTAssertTrue(FileManager.default.fileExists(atPath: out.appendingPathComponent("junit.xml").path))
    }

    func testTheArgoWorkflowOfTheDocsPlansFansOutAndMerges() throws {
        TestMedia.ensureGenerated()
        let dir = TestMedia.temporaryDirectory("reel-argo")
        defer { try? FileManager.default.removeItem(at: dir) }
        let workflow = try XCTUnwrap(try manifests().first { $0["kind"] as? String == "Workflow" })
        let parameters = Dictionary(uniqueKeysWithValues: (path(workflow, ["spec", "arguments", "parameters"]) as? [[String: Any]] ?? []).map {
            ($0["name"] as! String, "\($0["value"]!)")
        })
        let templates = Dictionary(uniqueKeysWithValues: (path(workflow, ["spec", "templates"]) as? [[String: Any]] ?? []).map { ($0["name"] as! String, $0) })
        let entry = try XCTUnwrap(templates[path(workflow, ["spec", "entrypoint"]) as? String ?? ""])
        let steps = try XCTUnwrap(entry["steps"] as? [[[String: Any]]])
        XCTAssertEqual(steps.map { $0.map { $0["template"] as? String ?? "?" } }, [["plan"], ["shard"], ["merge"]])
        let fan = steps[1][0]
        let sequence = try XCTUnwrap(fan["withSequence"] as? [String: Any])
        func source(_ name: String) throws -> String { try XCTUnwrap(path(templates[name], ["script", "source"]) as? String, name) }
        func substitute(_ text: String, item: String? = nil) -> String {
            var t = text
            for (k, v) in parameters { t = t.replacingOccurrences(of: "{{workflow.parameters.\(k)}}", with: v) }
            if let item { t = t.replacingOccurrences(of: "{{inputs.parameters.index}}", with: item) }
            return t
        }
        let shards = try XCTUnwrap(Int(substitute(sequence["end"] as? String ?? "")))
        XCTAssertEqual("\(sequence["start"]!)", "1")
        XCTAssertEqual(path(fan, ["arguments", "parameters", 0, "value"]) as? String, "{{item}}")

        // One run of the whole list, with the manifests' options (the defaults).
        let whole = dir.appendingPathComponent("whole")
        XCTAssertEqual(ProcessRunner.run(ProcessRunner.reelExecutable, ["check", "--quiet", "--report", whole.path] + inputs, timeout: 180).status, 1)
        let out = dir.appendingPathComponent("out", isDirectory: true)
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let list = try catalogue(in: dir)
        // The workflow twice: the first plan is equal, the second weighted by the first's report.
        for (round, weighting) in ["equal", "report"].enumerated() {
            let plan = run(substitute(try source("plan")), out: out, catalogue: list)
            XCTAssertEqual(plan.status, 0, "round \(round): \(plan.stderr)")
            XCTAssertEqual(try CheckPlan.decode(Data(contentsOf: out.appendingPathComponent("plan.json"))).weighting, weighting)
            for item in 1...shards {
                let shard = run(substitute(try source("shard"), item: "\(item)"), out: out, catalogue: list)
                XCTAssertEqual(shard.status, 0, "shard \(item): \(shard.stderr)")
            }
            let merge = run(try source("merge"), out: out, catalogue: list)
            XCTAssertEqual(merge.status, 1, merge.stderr)
            XCTAssertEqual(try essence(out.appendingPathComponent("report")), try essence(whole), "round \(round)")
        }
    }
}
