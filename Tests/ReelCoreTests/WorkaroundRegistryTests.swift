import Foundation
import XCTest

/// The registry of GStreamer 1.22 workarounds (Sources/ReelEngine/Workarounds/README.md) names
/// every file of both Workarounds folders: a workaround added without its row fails here.
final class WorkaroundRegistryTests: XCTestCase {
    func testEveryWorkaroundFileHasARow() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        let registry = try String(contentsOf: sources.appendingPathComponent("ReelEngine/Workarounds/README.md"), encoding: .utf8)
        var named = 0
        for folder in ["ReelEngine/Workarounds", "ReelCore/Workarounds"] {
            let files = try FileManager.default.contentsOfDirectory(atPath: sources.appendingPathComponent(folder).path)
            for file in files where file.hasSuffix(".swift") {
                let name = String(file.dropLast(".swift".count))
                // A ReelEngine file by its file name, a ReelCore decision by its type's name.
                XCTAssertTrue(registry.contains("`\(file)`") || registry.contains("`\(name)`"), "\(folder)/\(file) has no row in the registry")
                named += 1
            }
        }
        XCTAssertGreaterThan(named, 15, "the folders were read")
    }
}
