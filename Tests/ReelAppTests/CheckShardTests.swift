import Foundation
import ReelCore
import ReelTestSupport
import XCTest

/// `reel check` for CI and many machines: the JUnit file (validated against the common JUnit
/// schema with xmllint), `--shard K/N` and `reel check merge`, by hand and with GNU parallel.
final class CheckShardTests: XCTestCase {
    private var inputs: [String] {
        [TestMedia.path("clip2s.mp4"), TestMedia.path("empty.mp4"), TestMedia.path("gapless-01.mp4"), TestMedia.path("notmedia.mp4"),
         TestMedia.path("gapless-02.mp4")]
    }

    private func check(_ extra: [String], report: URL) -> ProcessRunner.Result {
        ProcessRunner.run(ProcessRunner.reelExecutable, ["check", "--quiet", "--at", "50%", "--report", report.path] + extra + inputs, timeout: 120)
    }

    /// What must be the same between one run and merged shards: items, verdicts, problems, frames.
    private func essence(_ report: URL) throws -> [String] {
        let data = try Data(contentsOf: report.appendingPathComponent("report.json"))
        return try CheckReport.decode(data).items.map { i in
            "\(i.index) \(i.title) ok=\(i.ok) \(i.error?.code ?? "-") \(i.duration.map { String(format: "%.2f", $0) } ?? "-") "
                + i.frames.map { "\($0.requested)@\($0.time.map { String(format: "%.3f", $0) } ?? "-"):\($0.file ?? "-")" }.joined(separator: ",")
        }
    }

    func testTheJUnitFileIsValidAndSaysWhichItemsFailed() throws {
        TestMedia.ensureGenerated()
        let dir = TestMedia.temporaryDirectory("reel-junit")
        defer { try? FileManager.default.removeItem(at: dir) }
        let junit = dir.appendingPathComponent("junit.xml")
        let r = check(["--junit", junit.path], report: dir.appendingPathComponent("report"))
        XCTAssertEqual(r.status, 1, r.stderr)
        let schema = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Resources/schemas/junit.xsd").standardizedFileURL
        let lint = ProcessRunner.run("/usr/bin/xmllint", ["--noout", "--schema", schema.path, junit.path], timeout: 30)
        XCTAssertEqual(lint.status, 0, "xmllint: \(lint.stderr)")
        let xml = try String(contentsOf: junit, encoding: .utf8)
        XCTAssertTrue(xml.contains(#"tests="5" failures="2""#), xml)
        XCTAssertTrue(xml.contains(#"<testcase classname="reel.check" name="001 empty""#), xml)
        XCTAssertTrue(xml.contains(#"type="empty-file""#), xml)
        XCTAssertTrue(xml.contains(#"type="unsupported-format""#), xml)
        XCTAssertEqual(xml.components(separatedBy: "<failure ").count - 1, 2)

        // The schema is not a rubber stamp: a testcase without its time fails it.
        let broken = dir.appendingPathComponent("broken.xml")
        try xml.replacingOccurrences(of: #"classname="reel.check" name="000"#, with: #"classname="reel.check" nom="000"#).write(to: broken, atomically: true, encoding: .utf8)
        XCTAssertNotEqual(ProcessRunner.run("/usr/bin/xmllint", ["--noout", "--schema", schema.path, broken.path], timeout: 30).status, 0)
    }

    func testThreeShardsMergedEqualOneRunByHandAndWithGNUParallel() throws {
        TestMedia.ensureGenerated()
        let dir = TestMedia.temporaryDirectory("reel-shards")
        defer { try? FileManager.default.removeItem(at: dir) }
        let whole = dir.appendingPathComponent("whole")
        XCTAssertEqual(check([], report: whole).status, 1)
        let expected = try essence(whole)
        XCTAssertEqual(expected.count, 5)

        var shards: [String] = []
        for k in 1...3 {
            let shard = dir.appendingPathComponent("shard\(k)")
            XCTAssertNotEqual(check(["--shard", "\(k)/3"], report: shard).status, 2)
            shards.append(shard.path)
        }
        XCTAssertEqual(try essence(URL(fileURLWithPath: shards[0])).map { $0.split(separator: " ")[0] }, ["0", "3"], "shard 1 of 3: items 0 and 3")
        let merged = dir.appendingPathComponent("merged")
        let junit = dir.appendingPathComponent("merged.xml")
        let m = ProcessRunner.run(ProcessRunner.reelExecutable, ["check", "merge", "--report", merged.path, "--junit", junit.path] + shards, timeout: 60)
        XCTAssertEqual(m.status, 1, "merged: some items failed: \(m.stderr)")
        XCTAssertEqual(try essence(merged), expected, "the merged shards are the one run")
        XCTAssertTrue(FileManager.default.fileExists(atPath: merged.appendingPathComponent("contact-sheet.png").path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: merged.appendingPathComponent("index.html").path))
        for frame in try CheckReport.decode(Data(contentsOf: merged.appendingPathComponent("report.json"))).items.flatMap(\.frames).compactMap(\.file) {
            XCTAssertTrue(FileManager.default.fileExists(atPath: merged.appendingPathComponent(frame).path), frame)
        }
        XCTAssertTrue(try String(contentsOf: junit, encoding: .utf8).contains(#"tests="5" failures="2""#))

        // A shard merged twice (as a retried pod leaves it): each item once, and said.
        let twice = ProcessRunner.run(ProcessRunner.reelExecutable, ["check", "merge", "--report", dir.appendingPathComponent("twice").path, shards[0], shards[0]], timeout: 60)
        XCTAssertNotEqual(twice.status, 2, twice.stderr)
        XCTAssertEqual(try essence(dir.appendingPathComponent("twice")).count, 2, "items 0 and 3, once each")
        XCTAssertTrue(twice.stderr.contains("item 0 (") && twice.stderr.contains("reported twice"), twice.stderr)

        // The same with GNU parallel, 3 jobs at once, as docs/QA.md shows.
        let parallel = ProcessRunner.run("/usr/bin/parallel",
                                         ["--halt", "never", "-j3", ProcessRunner.reelExecutable, "check", "--quiet", "--at", "50%", "--shard", "{}/3",
                                          "--report", dir.appendingPathComponent("p{}").path] + inputs + [":::", "1", "2", "3"], timeout: 180)
        XCTAssertFalse(parallel.timedOut, parallel.stderr)
        let pMerged = dir.appendingPathComponent("p-merged")
        let pm = ProcessRunner.run(ProcessRunner.reelExecutable, ["check", "merge", "--report", pMerged.path]
                                   + (1...3).map { dir.appendingPathComponent("p\($0)").path }, timeout: 60)
        XCTAssertEqual(pm.status, 1, pm.stderr)
        XCTAssertEqual(try essence(pMerged), expected, "GNU parallel's shards merged are the one run")
    }

    func testBadShardsAreRefused() {
        for bad in ["0/3", "4/3", "1/0", "a/b", "1"] {
            let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["check", "--report", "/tmp/x", "--shard", bad, TestMedia.path("clip2s.mp4")], timeout: 30)
            XCTAssertEqual(r.status, 2, "a command line that cannot be honoured exits 2 (issue 28, item 17): \(bad): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("--shard"), r.stderr)
        }
    }

    /// Issue 28, item 6: a shard's report.json comes from another machine. A frame named
    /// "../victim" (or any path but frames/<name>), or a frames/ entry that is a symlink, is
    /// ignored with a warning: nothing outside the output is removed or copied in.
    func testMergeTakesOnlyFramesFromTheShardsFramesFolder() throws {
        TestMedia.ensureGenerated()
        let dir = TestMedia.temporaryDirectory("reel-merge-paths")
        defer { try? FileManager.default.removeItem(at: dir) }
        let shard = dir.appendingPathComponent("shard")
        let made = ProcessRunner.run(ProcessRunner.reelExecutable, ["check", "--quiet", "--at", "50%", "--report", shard.path,
                                                                    TestMedia.path("clip2s.mp4"), TestMedia.path("gapless-01.mp4")], timeout: 120)
        XCTAssertEqual(made.status, 0, made.stderr)
        let victim = dir.appendingPathComponent("out/victim")
        try FileManager.default.createDirectory(at: victim, withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: victim.appendingPathComponent("precious.txt"))
        try FileManager.default.createSymbolicLink(atPath: shard.appendingPathComponent("frames/link.png").path, withDestinationPath: "/etc/passwd")
        let json = shard.appendingPathComponent("report.json")
        var text = try String(contentsOf: json, encoding: .utf8)
        let names = try CheckReport.decode(Data(text.utf8)).items.flatMap(\.frames).compactMap(\.file)
        XCTAssertEqual(names.count, 2, text)
        text = text.replacingOccurrences(of: names[0], with: "../victim")
        text = text.replacingOccurrences(of: names[1], with: "frames/link.png")
        try text.write(to: json, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("out/merged")
        let m = ProcessRunner.run(ProcessRunner.reelExecutable, ["check", "merge", "--report", out.path, shard.path], timeout: 60)
        XCTAssertTrue(m.status == 0 || m.status == 1, m.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: victim.appendingPathComponent("precious.txt").path), "nothing outside the output is touched")
        XCTAssertTrue(m.stderr.contains("ignored the frame “../victim”"), m.stderr)
        XCTAssertTrue(m.stderr.contains("ignored the frame “frames/link.png”"), m.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.appendingPathComponent("frames/link.png").path))
        let merged = try CheckReport.decode(Data(contentsOf: out.appendingPathComponent("report.json")))
        XCTAssertEqual(merged.items.flatMap(\.frames).compactMap(\.file), [], "the refused frames are not listed")
        for path in ["frames/a.png", "frames/0001-clip2s-50%.png"] { XCTAssertTrue(CaptureFileName.isShardFramePath(path), path) }
        for path in ["../victim", "frames/../x", "frames/", "frames/.hidden", "frames/a/b.png", "/etc/passwd", "frames/a\u{0}b", "x/frames/a.png"] {
            XCTAssertFalse(CaptureFileName.isShardFramePath(path), path)
        }
    }

    /// Issue 56, item 5: a shard whose `frames/` folder is a link to a folder elsewhere (holding a
    /// "private key" under the frame's name) had that file copied into the merged report at 0644.
    /// A link anywhere on the way is refused; a real frame is copied as bytes, the report's own.
    func testMergeRefusesAShardFolderThatIsALink() throws {
        TestMedia.ensureGenerated()
        let dir = TestMedia.temporaryDirectory("reel-merge-links")
        defer { try? FileManager.default.removeItem(at: dir) }
        let good = dir.appendingPathComponent("good"), bad = dir.appendingPathComponent("bad")
        for (k, shard) in [good, bad].enumerated() {
            let made = ProcessRunner.run(ProcessRunner.reelExecutable, ["check", "--quiet", "--at", "50%", "--shard", "\(k + 1)/2", "--report", shard.path,
                                                                        TestMedia.path("clip2s.mp4"), TestMedia.path("gapless-01.mp4")], timeout: 120)
            XCTAssertEqual(made.status, 0, made.stderr)
        }
        let name = try XCTUnwrap(try CheckReport.decode(Data(contentsOf: bad.appendingPathComponent("report.json"))).items.first?.frames.first?.file)
        let secrets = dir.appendingPathComponent("home-ssh")
        try FileManager.default.createDirectory(at: secrets, withIntermediateDirectories: true)
        let key = secrets.appendingPathComponent(String(name.dropFirst("frames/".count)))
        try Data("-----BEGIN OPENSSH PRIVATE KEY-----".utf8).write(to: key)
        chmod(key.path, 0o600)
        try FileManager.default.removeItem(at: bad.appendingPathComponent("frames"))
        try FileManager.default.createSymbolicLink(atPath: bad.appendingPathComponent("frames").path, withDestinationPath: secrets.path)
        let out = dir.appendingPathComponent("merged")
        let m = ProcessRunner.run(ProcessRunner.reelExecutable, ["check", "merge", "--report", out.path, good.path, bad.path], timeout: 60)
        XCTAssertTrue(m.status == 0 || m.status == 1, m.stderr)
        XCTAssertTrue(m.stderr.contains("ignored the frame “\(name)”"), m.stderr)
        let copied = out.appendingPathComponent(name)
        XCTAssertFalse((try? Data(contentsOf: copied)).map { String(decoding: $0, as: UTF8.self).contains("PRIVATE KEY") } ?? false, "the key was not copied")
        let merged = try CheckReport.decode(Data(contentsOf: out.appendingPathComponent("report.json")))
        let kept = merged.items.flatMap(\.frames).compactMap(\.file)
        XCTAssertEqual(kept.count, 1, "the good shard's frame only: \(kept)")
        let frame = try Data(contentsOf: out.appendingPathComponent(kept[0]))
        XCTAssertTrue(frame.starts(with: [0x89, 0x50, 0x4E, 0x47]), "a PNG")
        XCTAssertNil(LocalFileFacts.regularFile("frames/x.png", inside: bad), "the link is never followed")
        XCTAssertNil(LocalFileFacts.regularFile("../good/report.json", inside: bad))
        XCTAssertNotNil(LocalFileFacts.regularFile("report.json", inside: good))
    }
}
