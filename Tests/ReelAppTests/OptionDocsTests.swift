import Foundation
import ReelTestSupport
import XCTest

/// docs/OPTIONS.md carries what `reel help play|check|review|inspect` prints (the argument parser is the
/// one source of the options): an option added, renamed or reworded without `make docs` fails here.
final class OptionDocsTests: XCTestCase {
    func testTheOptionsReferenceIsTheBinarysHelp() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let check = Process()
        check.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        check.arguments = ["python3", "Resources/scripts/gen-option-docs.py", ProcessRunner.reelExecutable, "--check"]
        check.currentDirectoryURL = root
        let errors = Pipe()
        check.standardError = errors
        try check.run()
        check.waitUntilExit()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(check.terminationStatus, 0, "docs/OPTIONS.md is stale: \(said)")
        // Every long option of `reel play` is in the reference.
        let options = try String(contentsOf: root.appendingPathComponent("docs/OPTIONS.md"), encoding: .utf8)
        for option in ["--headless", "--header", "--live-mode", "--quality", "--metered", "--hwdec", "--sub-file", "--screenshot-at"] {
            XCTAssertTrue(options.contains("`\(option)"), "\(option) is described in the tables, not only in the generated help")
        }
    }

    /// docs/SOCKET.md's property table and the README's key table are made from the declarations
    /// (`reel docs properties|keys`): a property or a key added, renamed or reworded without
    /// `make docs` fails here.
    func testThePropertyAndKeyTablesAreTheDeclarations() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let run = ProcessRunner.run("/usr/bin/env", ["python3", root.appendingPathComponent("Resources/scripts/gen-option-docs.py").path,
                                                     ProcessRunner.reelExecutable, "--check"], timeout: 60, currentDirectory: root)
        XCTAssertEqual(run.status, 0, "stale: \(run.stderr)")
        let socket = try String(contentsOf: root.appendingPathComponent("docs/SOCKET.md"), encoding: .utf8)
        for row in ["| `audio-delay` |", "| `sub-speed` |", "| `time-pos`, `position` |", "| `eof-reached` |"] {
            XCTAssertTrue(socket.contains(row), "docs/SOCKET.md's table has \(row)")
        }
    }
}
