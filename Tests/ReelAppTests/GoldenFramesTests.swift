import Foundation
import ReelTestSupport
import XCTest

/// `reel check --golden` (issue 34): frames against a reference run's, by SSIM, on real clips that
/// ffmpeg re-encodes and marks — what a packager upgrade or a CDN change does to a catalogue.
final class GoldenFramesTests: XCTestCase {
    private func check(_ input: String, golden: URL, report: URL, extra: [String] = []) throws -> (Int32, [String: Any]) {
        let r = ProcessRunner.run(ProcessRunner.reelExecutable,
                                  ["check", "--frames-only", "--at", "2,5", "--golden", golden.path, "--report", report.path] + extra + [input], timeout: 120)
        let data = try XCTUnwrap(try? Data(contentsOf: report.appendingPathComponent("report.json")), "no report: \(r.stderr)")
        return (r.status, try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any]))
    }

    private func frames(_ report: [String: Any]) -> [[String: Any]] {
        ((report["items"] as? [[String: Any]])?.first?["frames"] as? [[String: Any]]) ?? []
    }

    private func ffmpeg(_ arguments: [String]) throws {
        let r = ProcessRunner.run("/usr/bin/ffmpeg", ["-v", "error", "-y"] + arguments, timeout: 120)
        XCTAssertEqual(r.status, 0, r.stderr)
    }

    func testAReencodeStaysAboveTheThresholdAndAChangedOverlayFallsBelowIt() throws {
        TestMedia.ensureGenerated()
        let dir = TestMedia.temporaryDirectory("reel-golden")
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = TestMedia.path("demo-ball.mp4")
        let reencoded = dir.appendingPathComponent("reencoded.mp4").path
        let marked = dir.appendingPathComponent("marked.mp4").path
        try ffmpeg(["-i", source, "-an", "-c:v", "libx264", "-b:v", "400k", "-preset", "veryfast", reencoded])
        try ffmpeg(["-i", source, "-an", "-vf", "drawbox=x=800:y=80:w=320:h=180:color=0x00c000@1:t=fill", "-c:v", "libx264", "-crf", "18", marked])
        // The catalogue's entry stays the same path; what it points to changes between runs.
        let entry = dir.appendingPathComponent("catalogue-entry.mp4")
        func point(to target: String) throws {
            try? FileManager.default.removeItem(at: entry)
            try FileManager.default.createSymbolicLink(atPath: entry.path, withDestinationPath: target)
        }
        let golden = dir.appendingPathComponent("golden", isDirectory: true)

        try point(to: source)
        let (s0, _) = try check(entry.path, golden: golden, report: dir.appendingPathComponent("r0"), extra: ["--update-golden"])
        XCTAssertEqual(s0, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: golden.appendingPathComponent("report.json").path), "the reference is stored")

        // The same input again: exact positions, the same frames, 1.0.
        let (s1, same) = try check(entry.path, golden: golden, report: dir.appendingPathComponent("r1"))
        XCTAssertEqual(s1, 0)
        XCTAssertEqual(frames(same).count, 2)
        for f in frames(same) {
            let g = try XCTUnwrap(f["golden"] as? [String: Any], "\(f)")
            XCTAssertEqual(try XCTUnwrap(g["ssim"] as? Double), 1, accuracy: 1e-9)
            XCTAssertTrue(g["psnr"] is NSNull, "identical: no finite PSNR")
        }

        // A re-encode at a lower bitrate: not identical, above the default threshold, no problem.
        try point(to: reencoded)
        let (s2, reencode) = try check(entry.path, golden: golden, report: dir.appendingPathComponent("r2"))
        XCTAssertEqual(s2, 0, "\(reencode)")
        for f in frames(reencode) {
            let g = try XCTUnwrap(f["golden"] as? [String: Any])
            let ssim = try XCTUnwrap(g["ssim"] as? Double)
            XCTAssertLessThan(ssim, 1)
            XCTAssertGreaterThan(try XCTUnwrap(g["worstTile"] as? Double), 0.8, "a re-encode is the same picture, in every part of it")
            XCTAssertTrue(g["diff"] is NSNull)
        }

        // A changed overlay: below the threshold, a problem, a diff image marking where it changed.
        try point(to: marked)
        let r3 = dir.appendingPathComponent("r3")
        let (s3, changed) = try check(entry.path, golden: golden, report: r3)
        XCTAssertEqual(s3, 1, "a frame that differs fails the item")
        let problems = ((changed["items"] as? [[String: Any]])?.first?["problems"] as? [[String: Any]]) ?? []
        XCTAssertEqual(problems.compactMap { $0["code"] as? String }, ["golden-mismatch", "golden-mismatch"])
        for f in frames(changed) {
            let g = try XCTUnwrap(f["golden"] as? [String: Any])
            XCTAssertLessThan(try XCTUnwrap(g["worstTile"] as? Double), 0.8)
            XCTAssertEqual(g["same"] as? Bool, false)
            let goldenCopy = r3.appendingPathComponent(try XCTUnwrap(g["file"] as? String)).path
            XCTAssertTrue(FileManager.default.fileExists(atPath: goldenCopy), "the golden frame is in the report")
            let diff = r3.appendingPathComponent(try XCTUnwrap(g["diff"] as? String)).path
            let marks = try XCTUnwrap(PixelProbe.box(of: PixelProbe.RGB(r: 255, g: 0, b: 255), in: diff), "marks in \(diff)")
            // The box is at 800…1120 × 80…260 of 1280 × 720; windows are 64 px there.
            XCTAssertGreaterThanOrEqual(marks.x, 800 - 72, "\(marks)")
            XCTAssertLessThanOrEqual(marks.x + marks.width, 1120 + 72, "\(marks)")
            XCTAssertGreaterThanOrEqual(marks.y, 80 - 72, "\(marks)")
            XCTAssertLessThanOrEqual(marks.y + marks.height, 260 + 72, "\(marks)")
            XCTAssertGreaterThan(marks.width, 200, "the changed area is marked, not a speck: \(marks)")
        }
        let html = try String(contentsOf: r3.appendingPathComponent("index.html"), encoding: .utf8)
        XCTAssertTrue(html.contains("golden/") && html.contains("-diff.png") && html.contains("DIFFERS"), "index.html shows both frames and the diff")

        // A missing reference is said, not a pass.
        let other = TestMedia.path("clip2s.mp4")
        let (s4, missing) = try check(other, golden: golden, report: dir.appendingPathComponent("r4"))
        XCTAssertEqual(s4, 0, "a warning")
        let warnings = ((missing["items"] as? [[String: Any]])?.first?["problems"] as? [[String: Any]]) ?? []
        XCTAssertEqual(warnings.compactMap { $0["code"] as? String }, ["golden-missing", "golden-missing"])
        // No reference at all: refused.
        let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["check", "--frames-only", "--golden", dir.appendingPathComponent("nothing").path,
                                                                 "--report", dir.appendingPathComponent("r5").path, other], timeout: 60)
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains("--update-golden"), r.stderr)
    }

    /// Shards compare with the same reference; `merge` keeps the golden frames and diffs.
    /// Issue 59: what may move is left out (`--golden-mask`, in the frame's pixels) or held to a
    /// threshold of its own (`--golden-region`): the changed overlay fails the check, passes with
    /// its rectangle masked, and fails again when that rectangle must stay near-identical.
    func testAMaskedAreaIsLeftOutAndARegionHasItsOwnThreshold() throws {
        TestMedia.ensureGenerated()
        let dir = TestMedia.temporaryDirectory("reel-golden-mask")
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = TestMedia.path("demo-ball.mp4")
        let marked = dir.appendingPathComponent("marked.mp4").path
        try ffmpeg(["-i", source, "-an", "-vf", "drawbox=x=800:y=80:w=320:h=180:color=0x00c000@1:t=fill", "-c:v", "libx264", "-crf", "18", marked])
        let entry = dir.appendingPathComponent("entry.mp4")
        try FileManager.default.createSymbolicLink(atPath: entry.path, withDestinationPath: source)
        let golden = dir.appendingPathComponent("golden", isDirectory: true)
        XCTAssertEqual(try check(entry.path, golden: golden, report: dir.appendingPathComponent("r0"), extra: ["--update-golden"]).0, 0)
        try FileManager.default.removeItem(at: entry)
        try FileManager.default.createSymbolicLink(atPath: entry.path, withDestinationPath: marked)
        XCTAssertEqual(try check(entry.path, golden: golden, report: dir.appendingPathComponent("r1")).0, 1, "the overlay differs")
        let (masked, report) = try check(entry.path, golden: golden, report: dir.appendingPathComponent("r2"), extra: ["--golden-mask", "790,70,340,200"])
        XCTAssertEqual(masked, 0, "masked: \(report)")
        let (held, strict) = try check(entry.path, golden: golden, report: dir.appendingPathComponent("r3"), extra: ["--golden-region", "790,70,340,200:0.95"])
        XCTAssertEqual(held, 1)
        let messages = ((strict["items"] as? [[String: Any]])?.first?["problems"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
        XCTAssertTrue(messages.contains { $0.contains("in the region 790,70,340,200") }, "\(messages)")
        let (loose, _) = try check(entry.path, golden: golden, report: dir.appendingPathComponent("r4"), extra: ["--golden-region", "790,70,340,200:0"])
        XCTAssertEqual(loose, 0, "a region with a loose threshold of its own")
        let bad = ProcessRunner.run(ProcessRunner.reelExecutable, ["check", "--golden", golden.path, "--report", dir.appendingPathComponent("r5").path, "--golden-mask", "1,2,3", entry.path], timeout: 30)
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("--golden-mask takes X,Y,W,H"), bad.stderr)
    }

    func testShardsAndMergeCarryTheComparison() throws {
        TestMedia.ensureGenerated()
        let dir = TestMedia.temporaryDirectory("reel-golden-shards")
        defer { try? FileManager.default.removeItem(at: dir) }
        let inputs = [TestMedia.path("demo-smpte.mp4"), TestMedia.path("clip2s.mp4")]
        let golden = dir.appendingPathComponent("golden")
        for k in 1...2 {
            let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["check", "--frames-only", "--at", "1", "--shard", "\(k)/2", "--golden", golden.path,
                                                                     "--update-golden", "--report", dir.appendingPathComponent("g\(k)").path] + inputs, timeout: 120)
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: golden.appendingPathComponent("report-shard-1-of-2.json").path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: golden.appendingPathComponent("report-shard-2-of-2.json").path))
        for k in 1...2 {
            let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["check", "--frames-only", "--at", "1", "--shard", "\(k)/2", "--golden", golden.path,
                                                                     "--report", dir.appendingPathComponent("s\(k)").path] + inputs, timeout: 120)
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        let out = dir.appendingPathComponent("merged")
        let m = ProcessRunner.run(ProcessRunner.reelExecutable, ["check", "merge", dir.appendingPathComponent("s1").path, dir.appendingPathComponent("s2").path,
                                                                 "--report", out.path], timeout: 60)
        XCTAssertEqual(m.status, 0, m.stderr)
        let data = try Data(contentsOf: out.appendingPathComponent("report.json"))
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let items = try XCTUnwrap(report["items"] as? [[String: Any]])
        XCTAssertEqual(items.count, 2)
        for item in items {
            let g = try XCTUnwrap(((item["frames"] as? [[String: Any]])?.first?["golden"]) as? [String: Any], "\(item)")
            XCTAssertEqual(try XCTUnwrap(g["ssim"] as? Double), 1, accuracy: 1e-9)
            XCTAssertTrue(FileManager.default.fileExists(atPath: out.appendingPathComponent(try XCTUnwrap(g["file"] as? String)).path))
        }
    }
}
