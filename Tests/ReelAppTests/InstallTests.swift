import Foundation
import ReelTestSupport
import XCTest

/// `make install PREFIX=…` (Resources/scripts/install.sh) and the desktop integration files.
final class InstallTests: XCTestCase {
    private var root: URL { TestMedia.packageRoot }

    func testInstallPutsTheBinaryDesktopEntryAndIconUnderThePrefix() throws {
        let prefix = TestMedia.temporaryDirectory("reel-prefix")
        defer { try? FileManager.default.removeItem(at: prefix) }
        let script = root.appendingPathComponent("Resources/scripts/install.sh").path
        let r = ProcessRunner.run("/bin/bash", [script, prefix.path, ProcessRunner.reelExecutable], timeout: 60)
        XCTAssertEqual(r.status, 0, r.stderr)
        let bin = prefix.appendingPathComponent("bin/reel").path
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: bin))
        let help = ProcessRunner.run(bin, ["--help"], timeout: 30)
        XCTAssertTrue(help.stdout.contains("check"), "the installed binary runs")
        // Installed without the build's debug information, its function names kept.
        let sections = ProcessRunner.run("/usr/bin/readelf", ["-SW", bin], timeout: 30).stdout
        XCTAssertFalse(sections.contains(".debug_info"), sections)
        XCTAssertTrue(sections.contains(".symtab"), sections)
        let desktop = prefix.appendingPathComponent("share/applications/io.github.reel_player.Reel.desktop").path
        let icon = prefix.appendingPathComponent("share/icons/hicolor/scalable/apps/reel.svg").path
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: desktop)), try Data(contentsOf: root.appendingPathComponent("Resources/io.github.reel_player.Reel.desktop")))
        let mode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: desktop)[.posixPermissions] as? NSNumber)
        XCTAssertEqual(mode.intValue & 0o777, 0o644)
        XCTAssertTrue(FileManager.default.fileExists(atPath: icon))
        let metainfo = prefix.appendingPathComponent("share/metainfo/io.github.reel_player.Reel.metainfo.xml").path
        XCTAssertTrue(FileManager.default.fileExists(atPath: metainfo), "the AppStream metainfo is installed")
        // DBusActivatable=true: the bus starts the installed binary as the app's service.
        let service = try String(contentsOf: prefix.appendingPathComponent("share/dbus-1/services/io.github.reel_player.Reel.service"), encoding: .utf8)
        XCTAssertEqual(service, "[D-BUS Service]\nName=io.github.reel_player.Reel\nExec=\(prefix.path)/bin/reel --gapplication-service\n")
        XCTAssertTrue(try String(contentsOfFile: desktop, encoding: .utf8).contains("\nDBusActivatable=true\n"))

        let missing = ProcessRunner.run("/bin/bash", [script, prefix.path, "/nonexistent/reel"], timeout: 30)
        XCTAssertNotEqual(missing.status, 0)
        XCTAssertTrue(missing.stderr.contains("is not built"), missing.stderr)
    }

    /// What file managers and software centres read passes their own validators, and the
    /// metainfo provides the media types the desktop entry claims (DASH among them).
    func testTheDesktopEntryAndTheMetainfoPassTheirValidatorsAndAgree() throws {
        let desktop = root.appendingPathComponent("Resources/io.github.reel_player.Reel.desktop").path
        let metainfo = root.appendingPathComponent("Resources/io.github.reel_player.Reel.metainfo.xml").path
        let d = ProcessRunner.run("/usr/bin/desktop-file-validate", [desktop], timeout: 30)
        XCTAssertEqual(d.status, 0, d.stdout + d.stderr)
        let a = ProcessRunner.run("/usr/bin/appstreamcli", ["validate", "--no-net", metainfo], timeout: 60)
        XCTAssertEqual(a.status, 0, a.stdout + a.stderr)
        let text = try String(contentsOfFile: desktop, encoding: .utf8)
        let claimed = Set((text.split(separator: "\n").first { $0.hasPrefix("MimeType=") } ?? "").dropFirst("MimeType=".count)
            .split(separator: ";").map(String.init).filter { !$0.hasPrefix("x-scheme-handler") })
        XCTAssertTrue(claimed.isSuperset(of: ["application/dash+xml", "application/vnd.apple.mpegurl", "application/x-mpegurl", "audio/x-mpegurl",
                                              "audio/x-scpls", "application/xspf+xml", "video/x-matroska", "video/mp4"]), "\(claimed)")
        let xml = try String(contentsOfFile: metainfo, encoding: .utf8)
        let provided = Set(xml.components(separatedBy: "<mediatype>").dropFirst().compactMap { $0.components(separatedBy: "</mediatype>").first })
        XCTAssertEqual(provided, claimed, "the metainfo provides what the desktop entry claims")
    }

    func testDesktopEntryDeclaresVideoAndPlaylistTypes() throws {
        let text = try String(contentsOf: root.appendingPathComponent("Resources/io.github.reel_player.Reel.desktop"), encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "[Desktop Entry]")
        var keys: [String: String] = [:]
        for line in lines.dropFirst() where !line.hasPrefix("#") {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            XCTAssertEqual(parts.count, 2, "key=value: \(line)")
            XCTAssertNil(keys[parts[0]], "duplicate key \(parts[0])")
            keys[parts[0]] = parts.last
        }
        XCTAssertEqual(keys["Type"], "Application")
        XCTAssertEqual(keys["Icon"], "reel")
        XCTAssertEqual(keys["Exec"], "reel %U")
        let mime = try XCTUnwrap(keys["MimeType"])
        XCTAssertTrue(mime.hasSuffix(";"))
        for type in ["video/mp4", "video/x-matroska", "video/webm", "application/vnd.apple.mpegurl", "audio/x-mpegurl",
                     "audio/x-scpls", "application/xspf+xml"] {
            XCTAssertTrue(mime.split(separator: ";").contains(Substring(type)), type)
        }
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/desktop-file-validate") {
            let v = ProcessRunner.run("/usr/bin/desktop-file-validate", [root.appendingPathComponent("Resources/io.github.reel_player.Reel.desktop").path])
            XCTAssertEqual(v.status, 0, v.stdout + v.stderr)
        }
    }

    func testIconRendersAsARedPlayButtonOnAReel() throws {
        let dir = TestMedia.temporaryDirectory("reel-icon")
        defer { try? FileManager.default.removeItem(at: dir) }
        let png = dir.appendingPathComponent("icon.png").path
        let r = ProcessRunner.run("/usr/bin/convert", ["-background", "none", root.appendingPathComponent("Resources/icons/reel.svg").path, png], timeout: 30)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(PixelProbe.size(png)?.width, 128)
        let hub = try XCTUnwrap(PixelProbe.pixel(png, x: 64, y: 50))
        XCTAssertGreaterThan(hub.r, 200); XCTAssertLessThan(hub.g, 100)
        let play = try XCTUnwrap(PixelProbe.pixel(png, x: 64, y: 64))
        XCTAssertEqual([play.r, play.g, play.b], [255, 255, 255])
    }
}
