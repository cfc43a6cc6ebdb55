import Foundation
import ReelCore
import XCTest

/// Text encodings, line ends and hostile input (binary junk, huge files, endless lines).
final class PlaylistEncodingTests: XCTestCase {
    private func parse(_ bytes: [UInt8], name: String = "list.m3u") -> PlaylistParseResult {
        PlaylistParser.parse(Data(bytes), location: URL(fileURLWithPath: "/media/lists/\(name)"))
    }

    func testEncodingsTable() {
        let body = "#EXTM3U\n#EXTINF:1,Café ☕\ncafé.mp4\n"
        let latin1: [UInt8] = Array("#EXTM3U\n#EXTINF:1,Caf".utf8) + [0xE9] + Array("\ncaf".utf8) + [0xE9] + Array(".mp4\n".utf8)
        let utf16le: [UInt8] = [0xFF, 0xFE] + body.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let utf16be: [UInt8] = [0xFE, 0xFF] + body.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        let table: [(name: String, bytes: [UInt8], file: String, title: String, uri: String, diagnostics: [Int?])] = [
            ("UTF-8", Array(body.utf8), "list.m3u8", "Café ☕", "file:///media/lists/caf%C3%A9.mp4", []),
            ("UTF-8 with BOM", [0xEF, 0xBB, 0xBF] + Array(body.utf8), "list.m3u8", "Café ☕", "file:///media/lists/caf%C3%A9.mp4", []),
            ("UTF-16 LE with BOM", utf16le, "list.m3u", "Café ☕", "file:///media/lists/caf%C3%A9.mp4", []),
            ("UTF-16 BE with BOM", utf16be, "list.m3u", "Café ☕", "file:///media/lists/caf%C3%A9.mp4", []),
            ("Latin-1 legacy .m3u", latin1, "list.m3u", "Café", "file:///media/lists/caf%C3%A9.mp4", []),
            ("Latin-1 in a .m3u8 is read, with a warning on its line", latin1, "list.m3u8", "Café", "file:///media/lists/caf%C3%A9.mp4", [2]),
        ]
        for row in table {
            let result = parse(row.bytes, name: row.file)
            XCTAssertEqual(result.items.map(\.title), [row.title], row.name)
            XCTAssertEqual(result.items.map(\.uri), [row.uri], row.name)
            XCTAssertEqual(result.diagnostics.map(\.line), row.diagnostics, "\(row.name): \(result.diagnostics)")
        }
    }

    /// PLS and XSPF with a UTF-8 BOM and with CRLF or lone-CR line ends read like plain files.
    func testPLSAndXSPFWithBOMAndLineEnds() {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let pls = "[playlist]\nFile1=café.mp4\nTitle1=Café ☕\nNumberOfEntries=1\nVersion=2\n"
        let xspf = """
            <?xml version="1.0" encoding="UTF-8"?>
            <playlist version="1" xmlns="http://xspf.org/ns/0/">
            <trackList>
            <track><location>café.mp4</location><title>Café ☕</title></track>
            </trackList>
            </playlist>

            """
        for (format, text) in [("list.pls", pls), ("list.xspf", xspf)] {
            for (ends, newline) in [("LF", "\n"), ("CRLF", "\r\n"), ("CR", "\r")] {
                for withBOM in [false, true] {
                    let body = Array(text.replacingOccurrences(of: "\n", with: newline).utf8)
                    let result = parse((withBOM ? bom : []) + body, name: format)
                    let label = "\(format), \(ends), BOM \(withBOM)"
                    XCTAssertEqual(result.items.map(\.title), ["Café ☕"], label)
                    XCTAssertEqual(result.items.map(\.uri), ["file:///media/lists/caf%C3%A9.mp4"], label)
                    XCTAssertEqual(result.diagnostics, [], "\(label): \(result.diagnostics)")
                }
            }
        }
    }

    func testBinaryJunkIsRefusedNotParsed() {
        var generator = SeededRandom(seed: 99)
        let junk: [UInt8] = (0..<200_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        let noNUL = junk.map { $0 == 0 ? 1 : $0 }
        let controls: [UInt8] = (0..<5000).map { UInt8(1 + $0 % 8) }
        let pngHeader: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D] + Array(repeating: 0x41, count: 100)
        for (name, bytes, format) in [("random", junk, "list.m3u"), ("random, no NUL", noNUL, "list.m3u"), ("control characters", controls, "list.pls"),
                                      ("a PNG renamed", pngHeader, "list.xspf"), ("random as XSPF", noNUL, "list.xspf")] {
            let result = parse(bytes, name: format)
            XCTAssertTrue(result.items.isEmpty, name)
            XCTAssertTrue(result.isFatal, "\(name): \(result.diagnostics)")
            XCTAssertLessThanOrEqual(result.diagnostics.count, 201, name)
        }
        XCTAssertEqual(parse(pngHeader).diagnostics.first?.line, 3, "the NUL byte's line is named (CRLF and LF both end a line)")
    }

    func testHugeFileIsRefused() throws {
        let big = Data(repeating: 0x61, count: (16 << 20) + 1)
        let result = PlaylistParser.parse(big, location: URL(fileURLWithPath: "/m/big.m3u"))
        XCTAssertTrue(result.isFatal)
        XCTAssertTrue(result.diagnostics[0].message.contains("larger than 16 MiB"))

        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reel-queue-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("big.m3u")
        try big.write(to: file)
        let loaded = PlaylistParser.load(file: file)
        XCTAssertTrue(loaded.isFatal)
        XCTAssertTrue(PlaylistParser.load(file: dir.appendingPathComponent("missing.m3u")).isFatal)
        XCTAssertTrue(PlaylistParser.load(file: dir).isFatal, "a directory is not a playlist")
    }

    func testEndlessLineIsSkippedAndTheRestLoads() {
        let endless = String(repeating: "x", count: 4 << 20)
        let text = "a.mp4\n" + endless + "\nb.mp4\n"
        let result = PlaylistParser.parse(Data(text.utf8), location: URL(fileURLWithPath: "/m/l.m3u"))
        XCTAssertEqual(result.items.map(\.uri), ["file:///m/a.mp4", "file:///m/b.mp4"])
        XCTAssertEqual(result.diagnostics.map(\.line), [2])
        XCTAssertTrue(result.diagnostics[0].message.contains("longer than"))

        let single = PlaylistParser.parse(Data(endless.utf8), location: URL(fileURLWithPath: "/m/l.pls"))
        XCTAssertTrue(single.items.isEmpty)
    }

    func testEntryAndDiagnosticCaps() {
        let many = (0..<100_010).map { "f\($0).mp4" }.joined(separator: "\n")
        let result = PlaylistParser.parse(Data(many.utf8), location: URL(fileURLWithPath: "/m/l.m3u"))
        XCTAssertEqual(result.items.count, 100_000)
        XCTAssertEqual(result.diagnostics.map(\.line), [100_001])

        let bad = (0..<1000).map { _ in "#EXTINF:x,y\na.mp4" }.joined(separator: "\n")
        let noisy = PlaylistParser.parse(Data(bad.utf8), location: URL(fileURLWithPath: "/m/l.m3u"))
        XCTAssertEqual(noisy.items.count, 1000)
        XCTAssertEqual(noisy.diagnostics.count, 201)
        XCTAssertEqual(noisy.diagnostics.last?.message, "800 more problems not listed")
    }

    /// Percent-encoded names in M3U and PLS, on disk: the literal name wins when such a file
    /// exists, else the decoded one when it does (as VLC and Totem read them), else the entry
    /// stays as written (and fails as a missing file, by that name).
    func testPercentEncodedNamesFindTheFileThatExists() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reel-pct-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for name in ["My Song.mp3", "lit%20eral.mp3", "lit eral.mp3", "Café.mp3"] {
            _ = FileManager.default.createFile(atPath: dir.appendingPathComponent(name).path, contents: Data([0]))
        }
        let m3u = dir.appendingPathComponent("list.m3u8")
        try "#EXTM3U\nMy%20Song.mp3\nlit%20eral.mp3\nCaf%C3%A9.mp3\nMissing%20One.mp3\nMy Song.mp3\n".write(to: m3u, atomically: true, encoding: .utf8)
        let pls = dir.appendingPathComponent("list.pls")
        try "[playlist]\nFile1=My%20Song.mp3\nNumberOfEntries=1\n".write(to: pls, atomically: true, encoding: .utf8)
        func uri(_ name: String) -> String { dir.appendingPathComponent(name).standardizedFileURL.absoluteString }
        XCTAssertEqual(PlaylistParser.load(file: m3u).items.map(\.uri),
                       [uri("My Song.mp3"), uri("lit%20eral.mp3"), uri("Café.mp3"), uri("Missing%20One.mp3"), uri("My Song.mp3")])
        XCTAssertEqual(PlaylistParser.load(file: pls).items.map(\.uri), [uri("My Song.mp3")])
    }
}
