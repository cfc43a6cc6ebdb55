import Foundation
import XCTest

/// `make test`'s fuzz smoke: every committed corpus input (Tests/Fuzz/corpus/TARGET, with the
/// regressions `make fuzz` found) replayed through its fuzz target in the debug build, so a crash,
/// a trap, a hang or a broken property on any of them fails the suite in seconds. The fuzzing
/// itself (libFuzzer, address sanitizer, new inputs) is `make fuzz` (Resources/scripts/fuzz.sh).
final class CorpusReplayTests: XCTestCase {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("corpus", isDirectory: true)

    func testEveryCorpusInputRunsCleanThroughItsTarget() throws {
        // The parsers and the rewriter the issues name must all be there, not just "some targets".
        for required in ["m3u", "pls", "xspf", "hls", "rewriter", "playlist", "inspect", "ipc", "byterange", "subtitles", "dash", "numbers", "live", "content"] {
            XCTAssertNotNil(FuzzTargets.all[required], "fuzz target \(required) is missing: \(FuzzTargets.all.keys.sorted())")
        }
        var replayed = 0
        for (name, target) in FuzzTargets.all.sorted(by: { $0.key < $1.key }) {
            let folder = Self.corpus.appendingPathComponent(name, isDirectory: true)
            let files = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? []
            XCTAssertFalse(files.isEmpty, "target \(name) has no committed corpus in \(folder.path)")
            for file in files.sorted(by: { $0.path < $1.path }) {
                let bytes = try [UInt8](Data(contentsOf: file))
                // A failing property aborts the process (as under libFuzzer): the lane runner says
                // which test was running; this line says which input.
                print("replay: \(name) \(file.lastPathComponent) (\(bytes.count) bytes)")
                target(bytes)
                replayed += 1
            }
        }
        XCTAssertGreaterThan(replayed, 80, "the corpus was replayed")
    }
}
