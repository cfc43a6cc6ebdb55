import Foundation
@testable import ReelCore
import XCTest

/// Inputs the fuzzers (Resources/scripts/fuzz.sh) found, kept as plain tests.
final class FuzzRegressionTests: XCTestCase {
    /// TimeFormat.clock trapped converting a huge Double to Int (a parsed "1e20" would do it).
    func testHugeTimesFormatWithoutTrapping() {
        XCTAssertEqual(TimeFormat.clock(1e20), TimeFormat.clock(1e15))
        XCTAssertEqual(TimeFormat.clock(-1e300), "-" + TimeFormat.clock(1e15))
        XCTAssertEqual(TimeFormat.clock(.infinity), "--:--")
        XCTAssertEqual(TimeFormat.fileStamp(.infinity), "00h00m00s000")
        XCTAssertEqual(TimeFormat.fileStamp(.nan), "00h00m00s000")
        XCTAssertFalse(TimeFormat.fileStamp(1e300).isEmpty)
        XCTAssertEqual(TimeFormat.parse("1e20").map(TimeFormat.clock), TimeFormat.clock(1e15))
    }

    /// Fuzz finding: a PLS/M3U title with invalid UTF-8 (U+FFFD when decoded with replacement,
    /// C1 controls from the legacy fallback) was written to M3U8 as is, and PlaylistParser then
    /// refused the saved file as binary: a queue saved by Reel could not be reopened. The legacy
    /// fallback is Windows-1252 now (0x91 is ‘, not the C1 control U+0091).
    func testSavedQueueWithUndecodableTitlesReopens() throws {
        let base = URL(fileURLWithPath: "/home/u/lists", isDirectory: true)
        let finding = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../Fuzz/corpus/pls/regress-replacement-chars-roundtrip").standardizedFileURL
        let pls = try Data(contentsOf: finding)
        // As Reel reads it (Windows-1252 fallback) and as the fuzz target did (U+FFFD).
        let fromFile = PlaylistParser.parse(pls, location: base.appendingPathComponent("a.pls"))
        let replaced = PLSParser.parse(text: String(decoding: pls, as: UTF8.self), location: base.appendingPathComponent("a.pls"))
        let m3u = PlaylistParser.parse(Data("#EXTM3U\n#EXTINF:3,Song \u{91}Q\u{92} \u{81}\u{8D}\n/m/a.mp3\n".unicodeScalars.map { UInt8($0.value) }), location: base.appendingPathComponent("a.m3u"))
        for (label, read) in [("pls latin-1", fromFile), ("pls replaced", replaced), ("m3u latin-1", m3u)] {
            XCTAssertEqual(read.items.count, 1, "\(label): \(read.diagnostics)")
            for format in PlaylistWriter.Format.allCases {
                let saved = PlaylistWriter.write(read.items, format: format, directory: base)
                let again = PlaylistParser.parse(Data(saved.utf8), location: base.appendingPathComponent("saved.\(format.rawValue)"))
                XCTAssertEqual(again.diagnostics, [], "\(label) \(format): \(saved.debugDescription)")
                XCTAssertEqual(again.items.map(\.uri), read.items.map(\.uri), "\(label) \(format)")
                // The title survives minus the control characters (the replacement characters stay),
                // trimmed as readers trim titles.
                let expected = read.items.first?.title.map { String(String.UnicodeScalarView($0.unicodeScalars.filter { !(0x7F...0x9F).contains($0.value) })).trimmingCharacters(in: .whitespaces) }
                XCTAssertEqual(again.items.first?.title, expected, "\(label) \(format)")
            }
        }
        XCTAssertTrue(replaced.items.first?.title?.contains("\u{FFFD}") == true)
        XCTAssertEqual(fromFile.items.first?.title, "in2=" + String(repeating: "‘", count: 20))
        XCTAssertEqual(m3u.items.first?.title, "Song ‘Q’ \u{81}\u{8D}")  // 0x81, 0x8D: undefined in Windows-1252
    }

    /// Fuzz findings (this branch, second run): an empty processing instruction `<?x?>` made
    /// FoundationXML strlen a NULL pointer (SEGV); a PLS Length of 3e40 trapped the M3U8 writer
    /// (Double → Int); a path with C1 controls or a trailing slash did not read back from M3U8.
    func testEmptyProcessingInstructionHugeDurationAndOddPaths() {
        let lists = URL(fileURLWithPath: "/home/u/lists", isDirectory: true)
        let xspf = "<?x?>\n<playlist version=\"1\" xmlns=\"http://xspf.org/ns/0/\"><trackList>\n<track><location>a.mp4</location></track><?pi ?>\n<track><location>b.mp4</location></track></trackList></playlist>\n"
        let parsed = XSPFParser.parse(text: xspf, location: lists.appendingPathComponent("a.xspf"))
        XCTAssertEqual(parsed.items.map(\.uri), ["file:///home/u/lists/a.mp4", "file:///home/u/lists/b.mp4"])
        XCTAssertEqual(parsed.diagnostics, [])

        let pls = PlaylistParser.parse(Data("[playlist]\nFile1=http://h/a.mp4\nLength1=30666666666666666666666666666666666666666\nNumberOfEntries=1\n".utf8), location: lists.appendingPathComponent("a.pls"))
        XCTAssertEqual(pls.items.count, 1, "\(pls.diagnostics)")
        let written = PlaylistWriter.write(pls.items, format: .m3u8)
        XCTAssertEqual(PlaylistParser.parse(Data(written.utf8), location: lists.appendingPathComponent("b.m3u8")).items.map(\.uri), ["http://h/a.mp4"], written)

        let odd = [QueueItem(uri: "file:///home/u/lists/mpa%203%C2%8F%C2%8F%C2%8F%C2%8F%C2%8F%C2%8F%C2%8F%C2%8F%C2%8F.mp3"),
                   QueueItem(uri: "file:///home/u/lists/dir%09tab/")]
        let saved = PlaylistWriter.write(odd, format: .m3u8, directory: lists)
        let again = PlaylistParser.parse(Data(saved.utf8), location: lists.appendingPathComponent("saved.m3u8"))
        XCTAssertEqual(again.items.map(\.uri), odd.map(\.uri), saved.debugDescription)
        XCTAssertEqual(again.diagnostics, [])
    }

    /// Fuzz finding (`inspect`): `reel inspect` redacted entry URIs but showed an untitled
    /// entry's name — its URI's file name — as it was, token and all; titles and problems that
    /// quote a line could carry one too. Every string it prints is redacted now.
    func testInspectNeverShowsARegisteredSecretInTitlesOrProblems() {
        let secret = "insp3ct-S3CRET-4a5b6c"
        Redactor.register(secret: secret)
        let m3u = """
        #EXTM3U
        https://cdn.example.com/v/clip-\(secret).mp4
        #EXTINF:3,Title \(secret)
        https://cdn.example.com/v/b.mp4
        not a uri \(secret) \u{1}
        """
        let result = PlaylistInspection.inspect(Data(m3u.utf8), location: URL(string: "https://example.com/lists/a.m3u")!)
        XCTAssertEqual(result.text.components(separatedBy: "\n").filter { $0.hasPrefix("  #") }.count, 2, result.text)
        XCTAssertFalse(result.text.contains(secret), result.text)
        XCTAssertFalse(result.json.serialized().contains(secret), result.json.serialized())
        XCTAssertTrue(result.text.contains("clip-"), "the name is still shown, without the token: \(result.text)")
    }
}

/// Processing instructions in XSPF, removed before FoundationXML sees them (it crashes on some).
final class XSPFProcessingInstructionTests: XCTestCase {
    func testRemovalKeepsLineBreaksAndNeverSplitsACharacter() {
        let cases: [(String, Int, String)] = [
            ("<a/><?x?><b/>", 0, "<a/><b/>"),
            ("<?x\n y?>\n<a/>", 0, "\n\n<a/>"),
            ("<<?a?>?a?>", 0, "", ),                 // a removal splices a new PI together
            ("\r<?x?>\n", 0, "\r\n"),                // "\r" and "\n" become one Character
            ("é<?x?>é", 0, "éé"),
            ("<?xml version=\"1.0\"?><?x?><a/>", 21, "<?xml version=\"1.0\"?><a/>"),  // the declaration stays
            ("<?unterminated <a/>", 0, "<?unterminated <a/>"),
            ("<?>", 0, "<?>"),
            ("<??>", 0, ""),
        ]
        for (input, floor, expected) in cases {
            XCTAssertEqual(XSPFParser.withoutProcessingInstructions(input, from: floor), expected, input.debugDescription)
        }
    }

    /// Fuzz findings: "String index is out of bounds" in the old index arithmetic (CI smoke run),
    /// and a PI whose "?>" is followed by a combining mark (U+0656), which String.contains("?>")
    /// missed, so FoundationXML got the PI and crashed (SEGV in strlen).
    func testTheFuzzCrashersParseToAnError() {
        let inputs: [[UInt8]] = [
            [0x3c, 0x3f, 0x0d, 0x3c, 0x3f, 0x2e, 0x1b, 0x3f, 0x3e, 0x3c, 0x3f, 0x6d, 0x0a, 0x00, 0x78, 0x5b,
             0x6d, 0x3c, 0x78, 0x3f, 0x3e, 0x65, 0x00, 0x3f, 0x3e, 0x53],
            [0x3c, 0x3f, 0xdd, 0x3f, 0x3e, 0xd9, 0x96, 0xef, 0xbf, 0xbd, 0xef, 0xbf, 0xbd, 0xf9, 0x78, 0xff, 0x7e, 0x03, 0x3c, 0xc3],
        ]
        for bytes in inputs {
            let parsed = XSPFParser.parse(text: String(decoding: bytes, as: UTF8.self), location: URL(fileURLWithPath: "/tmp/a.xspf"))
            XCTAssertTrue(parsed.items.isEmpty)
            XCTAssertFalse(parsed.diagnostics.isEmpty, "a clear diagnostic, not a crash")
        }
        XCTAssertEqual(XSPFParser.withoutProcessingInstructions("<?x?>\u{0656}<a/>", from: 0), "\u{0656}<a/>")
    }
}
