import ArgumentParser
import Foundation
import ReelCore

/// `reel check merge DIR... --report OUT [--junit FILE]`: joins the reports of `reel check
/// --shard K/N` runs into the one a single run would have written (items in order, frames,
/// contact sheet, index.html, JUnit), so a catalogue can be checked on many machines.
/// (`CheckCommand` hands over when its first input is `merge`: swift-argument-parser does not
/// route to a subcommand of a command that takes inputs of its own.)
struct CheckMerge {
    var directories: [String]
    var report: String
    var junit: String?

    func run() throws {
        guard !directories.isEmpty else {
            Log.say("give the shards' report directories", prefix: "reel check merge")
            throw ExitCode(2)
        }
        let out = URL(fileURLWithPath: report, isDirectory: true)
        let frames = out.appendingPathComponent("frames", isDirectory: true)
        let merged: CheckReport
        do {
            try FileManager.default.createDirectory(at: frames, withIntermediateDirectories: true)
            var reports: [CheckReport] = []
            for dir in directories.map({ URL(fileURLWithPath: $0, isDirectory: true) }) {
                let json = dir.appendingPathComponent("report.json")
                guard let data = try? Data(contentsOf: json) else { throw CheckReport.DecodingError(description: "\(json.path) cannot be read") }
                var shard = try CheckReport.decode(data)
                // Frame files keep their names (they carry the item's index, unique across shards).
                // A shard comes from another machine: only `frames/<name>` is taken, and only a
                // regular file (a "../victim" named there was removed outside the output).
                for i in shard.items.indices {
                    // `reel review`: the marks' frames (marks/<name>), copied the same way.
                    for k in shard.items[i].review?.marks.indices ?? 0..<0 {
                        guard let file = shard.items[i].review?.marks[k].frame else { continue }
                        if !Self.copy(file, from: dir, to: out, allowed: ReviewBook.safeFramePath(file) != nil, report: json.path) {
                            shard.items[i].review?.marks[k].frame = nil
                        }
                    }
                    for j in shard.items[i].frames.indices {
                        guard let file = shard.items[i].frames[j].file else { continue }
                        // A review's automated findings keep their frames in checks/<index>/frames/.
                        if CaptureFileName.isReviewCheckFramePath(file) {
                            if !Self.copy(file, from: dir, to: out, allowed: true, report: json.path) { shard.items[i].frames[j].file = nil }
                            continue
                        }
                        guard CaptureFileName.isShardFramePath(file), LocalFileFacts.regularFile(file, inside: dir) != nil else {
                            Log.say("\(json.path): ignored the frame “\(file)” (only a file in frames/ is taken)", prefix: "reel check merge")
                            shard.items[i].frames[j].file = nil
                            continue
                        }
                        let to = frames.appendingPathComponent(String(file.dropFirst("frames/".count)))
                        try Self.copyBytes(dir.appendingPathComponent(file), to: to)
                        // `--golden`: the golden frame (golden/) and the diff image (frames/), the same way.
                        if let golden = shard.items[i].frames[j].golden {
                            shard.items[i].frames[j].golden = Self.take(golden, from: dir, to: out, report: json.path)
                        }
                    }
                }
                reports.append(shard)
            }
            merged = try CheckReport.merged(reports)
            let iso = ISO8601DateFormatter()
            for r in merged.retried {
                Log.say("item \(r.index) (\(Redactor.redactURL(r.uri))) was reported twice: kept the report of \(iso.string(from: r.kept)), "
                        + "not the one of \(iso.string(from: r.dropped)) (a retried shard)", prefix: "reel check merge")
            }
            for conflict in merged.reviewConflicts { Log.say("conflict: \(Redactor.redactText(conflict.summary))", prefix: "reel check merge") }
            try MainActor.assumeIsolated {
                try CheckRunner.write(merged, to: out, junit: junit.map { URL(fileURLWithPath: $0) },
                                      log: { Log.say($0, prefix: "") })
            }
        } catch {
            Log.say("\(error)", prefix: "reel check merge")
            throw ExitCode(2)
        }
        let refused = merged.items.filter { $0.review?.verdict == .fail }.count
        Log.say("\(merged.items.count) items from \(directories.count) reports, \(merged.failedCount) failed"
                + (merged.items.contains { $0.review != nil } ? ", \(refused) failed by a reviewer, \(merged.reviewConflicts.count) conflict(s)" : "")
                + "; report in \(report)", prefix: "reel check merge")
        if merged.failedCount > 0 || refused > 0 || !merged.reviewConflicts.isEmpty { throw ExitCode(1) }
    }

    /// Copies `file` (relative) from a report's directory into `out`, as a regular file only;
    /// false (and said) when it is not taken.
    static func copy(_ file: String, from dir: URL, to out: URL, allowed: Bool, report: String) -> Bool {
        guard allowed, let from = LocalFileFacts.regularFile(file, inside: dir) else {
            Log.say("\(report): ignored the file “\(file)”", prefix: "reel check merge")
            return false
        }
        let to = out.appendingPathComponent(file)
        try? FileManager.default.createDirectory(at: to.deletingLastPathComponent(), withIntermediateDirectories: true)
        return (try? copyBytes(from, to: to)) != nil
    }

    /// The bytes of a checked file, written anew at `to` with the report's mode (0644), whatever
    /// the source's; never through a link left at `to`.
    static func copyBytes(_ from: URL, to: URL) throws {
        let data = try Data(contentsOf: from)
        try? FileManager.default.removeItem(at: to)
        try data.write(to: to, options: .withoutOverwriting)
    }

    /// A shard's golden comparison with its files copied into `out` (only `golden/<name>` and
    /// `frames/<name>`, regular files; what is not is dropped from the comparison).
    static func take(_ golden: CheckReport.Golden, from dir: URL, to out: URL, report: String) -> CheckReport.Golden? {
        func copy(_ file: String, folder: String) -> Bool {
            Self.copy(file, from: dir, to: out, allowed: CaptureFileName.isShardFramePath(file, folder: folder), report: report)
        }
        guard copy(golden.file, folder: "golden") else { return nil }
        var taken = golden
        if let diff = golden.diff, !copy(diff, folder: "frames") { taken.diff = nil }
        return taken
    }
}
