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
        let seconds = ProcessInfo.processInfo.environment["REEL_FUZZ_SECONDS"] ?? "4"
        let targets = ProcessRunner.run("/bin/bash", [script, "--list"], timeout: 30).lines
        XCTAssertGreaterThanOrEqual(targets.count, 4, "targets: \(targets)")
        // The first build compiles ReelCore with the sanitizers: minutes on 2 busy cores.
        // A fixed seed inside make test, so that CI explores the same inputs each run (the long
        // run, `make fuzz`, is random).
        let seed = ProcessInfo.processInfo.environment["FUZZ_SEED"] ?? "1"
        let run = ProcessRunner.run("/bin/bash", [script, "all", seconds], timeout: 900, environment: ["FUZZ_SEED": seed],
                                    currentDirectory: TestMedia.packageRoot)
        XCTAssertFalse(run.timedOut, "fuzz.sh hung: \(run.stderr)")
        XCTAssertEqual(run.status, 0, run.stderr)
        for t in targets {
            XCTAssertTrue(run.stderr.contains("fuzz: \(t) ok"), "\(t): \(run.stderr)")
        }
    }
}
