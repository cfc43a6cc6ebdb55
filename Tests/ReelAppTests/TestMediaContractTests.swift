import Foundation
import ReelTestSupport
import XCTest

/// The suite plays only what `make test` makes: make-media.sh without `--bench`. A medium made
/// only for `make bench` is on a machine that ran the bench and missing on a clean CI checkout:
/// there the tests playing it failed as "never played" (long60s.mp4, session 33). Every medium a
/// test names by a literal is outside the bench block and exists after the run's generation.
final class TestMediaContractTests: XCTestCase {
    func testEveryMediumATestNamesIsMadeByTheTestMediaNotOnlyByTheBench() throws {
        let root = TestMedia.packageRoot
        let script = try String(contentsOf: root.appendingPathComponent("Resources/scripts/make-media.sh"), encoding: .utf8)
        let marker = try XCTUnwrap(script.range(of: "# --- benchmark media"), "make-media.sh's bench block has its heading")
        let benchBlock = String(script[marker.lowerBound...])
        let literal = try NSRegularExpression(pattern: #"TestMedia\.(?:path|url)\("([^"\\()]+)"\)"#)
        var named = Set<String>()
        let tests = root.appendingPathComponent("Tests")
        for case let file as String in FileManager.default.enumerator(atPath: tests.path) ?? NSEnumerator() where file.hasSuffix(".swift") {
            let text = try String(contentsOf: tests.appendingPathComponent(file), encoding: .utf8)
            for m in literal.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                if let r = Range(m.range(at: 1), in: text) { named.insert(String(text[r])) }
            }
        }
        XCTAssertGreaterThan(named.count, 40, "the scan finds the suite's media")
        XCTAssertTrue(named.contains("color10s.mp4"))
        let deliberatelyAbsent: Set<String> = ["missing-file.mp4"]
        // A file the bench block makes is named there after a space (`make_colors long60s.mp4 …`,
        // `make_hls_variant hls/bench3/720 …`); a folder a test names (`hls/abr`) is not a file.
        let benchOnly = named.filter { name in
            guard !(name as NSString).pathExtension.isEmpty else { return false }
            let folder = (name as NSString).deletingLastPathComponent
            return benchBlock.contains(" \(name)") || (!folder.isEmpty && benchBlock.contains(" \(folder) "))
        }
        XCTAssertEqual(benchOnly.sorted(), [], "media made only by `make-media.sh --bench`, which `make test` does not run")
        TestMedia.ensureGenerated()
        let absent = named.subtracting(deliberatelyAbsent).filter { !FileManager.default.fileExists(atPath: TestMedia.directory.appendingPathComponent($0).path) }
        XCTAssertEqual(absent.sorted(), [], "media the tests name that make-media.sh does not make")
    }
}
