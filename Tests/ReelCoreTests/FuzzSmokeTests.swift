import Foundation
import ReelTestSupport
import XCTest

/// A short libFuzzer run of every ReelCore fuzz target (Resources/scripts/fuzz.sh). The long run
/// is documented in Tests/Fuzz/README.md. Skipped only when the toolchain lacks libFuzzer.
final class FuzzSmokeTests: XCTestCase {
    func testEveryFuzzTargetRunsClean() throws {
        let script = TestMedia.packageRoot.appendingPathComponent("Resources/scripts/fuzz.sh").path
        let check = ProcessRunner.run("/bin/bash", [script, "--check"], timeout: 120)
        if check.status != 0 { throw XCTSkip("this Swift toolchain cannot build libFuzzer binaries: \(check.stderr)") }
        // A fixed number of inputs per target from the committed corpus, with a fixed seed: the
        // same inputs on CI as here for the same code (a time budget explored more or less on
        // machines of other speeds, and once found a crasher on CI only).
        let runs = ProcessInfo.processInfo.environment["REEL_FUZZ_RUNS"] ?? "6000"
        let targets = ProcessRunner.run("/bin/bash", [script, "--list"], timeout: 30).lines
        // The parsers and the rewriter the issue names must all be there, not just "some targets".
        for required in ["m3u", "pls", "xspf", "hls", "rewriter", "playlist", "inspect", "ipc", "byterange", "subtitles", "dash"] {
            XCTAssertTrue(targets.contains(required), "fuzz target \(required) is missing: \(targets)")
        }
        // The first build compiles ReelCore with the sanitizers: minutes on 2 busy cores. The
        // long run, `make fuzz`, is random and timed.
        let seed = ProcessInfo.processInfo.environment["FUZZ_SEED"] ?? "1"
        let run = ProcessRunner.run("/bin/bash", [script, "all", "0"], timeout: 900, environment: ["FUZZ_SEED": seed, "FUZZ_RUNS": runs],
                                    currentDirectory: TestMedia.packageRoot)
        XCTAssertFalse(run.timedOut, "fuzz.sh hung: \(run.stderr)")
        XCTAssertEqual(run.status, 0, run.stderr)
        for t in targets {
            XCTAssertTrue(run.stderr.contains("fuzz: \(t) ok"), "\(t): \(run.stderr)")
        }
    }
}
