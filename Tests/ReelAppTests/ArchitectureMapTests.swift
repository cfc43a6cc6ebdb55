import Foundation
import ReelTestSupport
import XCTest

/// docs/ARCHITECTURE.md is the map: at most 40 KB, and every source file is in its file map
/// (`Resources/scripts/architecture-map.py` writes it; `make docs`).
final class ArchitectureMapTests: XCTestCase {
    func testTheMapNamesEverySourceFileAndStaysShort() throws {
        let root = TestMedia.packageRoot
        let doc = root.appendingPathComponent("docs/ARCHITECTURE.md")
        let text = try String(contentsOf: doc, encoding: .utf8)
        XCTAssertLessThanOrEqual(text.utf8.count, 40_000, "ARCHITECTURE.md is the map: detail goes to DECISIONS.md")
        XCTAssertFalse(text.contains("(undescribed)"), "a source folder without a line in architecture-map.py's FOLDERS")
        let check = ProcessRunner.run("/usr/bin/python3", [root.appendingPathComponent("Resources/scripts/architecture-map.py").path, "--check"], timeout: 30)
        XCTAssertEqual(check.status, 0, "the file map is stale (a file added, moved or removed): run `make docs`. \(check.stderr)")
        // Every file by name, whatever the script says.
        let files = FileManager.default.enumerator(atPath: root.appendingPathComponent("Sources").path)?.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") || $0.hasSuffix(".c") || $0.hasSuffix(".h") } ?? []
        XCTAssertGreaterThan(files.count, 300)
        let missing = files.filter { path in
            let name = (path as NSString).lastPathComponent
            let shown = name.hasSuffix(".swift") ? String(name.dropLast(6)) : name
            return !text.contains(shown)
        }
        XCTAssertEqual(missing, [], "source files the map does not name")
    }
}
