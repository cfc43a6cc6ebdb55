import Foundation
import ReelCore
import XCTest

final class XSPFParserTests: XCTestCase {
    private let local = URL(fileURLWithPath: "/media/lists/mix.xspf")

    private func doc(_ tracks: String, title: String = "") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <playlist version="1" xmlns="http://xspf.org/ns/0/" xmlns:reel="https://reel.invalid/ns">
          \(title)
          <trackList>
        \(tracks)
          </trackList>
        </playlist>
        """
    }

    func testWellFormed() {
        let text = doc("""
            <track><location>My%20Clip.mp4</location><title>Clip &amp; Co</title><duration>12500</duration></track>
            <track><location>file:///music/a%20b.mp4</location></track>
            <track><location>http://127.0.0.1/x.mp4?a=1&amp;b=2</location><title>Net</title></track>
            <track><location>../up.mp4</location><location>ignored.mp4</location></track>
        """, title: "<title>Mix</title>")
        let result = PlaylistParser.parse(Data(text.utf8), location: local)
        XCTAssertEqual(result.format, .xspf)
        XCTAssertEqual(result.title, "Mix")
        XCTAssertEqual(result.items.map(\.uri), ["file:///media/lists/My%20Clip.mp4", "file:///music/a%20b.mp4", "http://127.0.0.1/x.mp4?a=1&b=2", "file:///media/up.mp4"])
        XCTAssertEqual(result.items.map(\.title), ["Clip & Co", nil, "Net", nil])
        XCTAssertEqual(result.items.map(\.duration), [12.5, nil, nil, nil])
        XCTAssertEqual(result.diagnostics, [])
    }

    func testOptionsExtension() {
        let text = doc("""
            <track>
              <location>http://127.0.0.1/game.m3u8</location>
              <extension application="https://reel.invalid/ns">
                <reel:option name="header">Authorization: Bearer xyz123</reel:option>
                <reel:option name="Bucket">sports</reel:option>
                <reel:option>no name</reel:option>
              </extension>
              <extension application="http://www.videolan.org/vlc/playlist/0">
                <vlc:option xmlns:vlc="http://www.videolan.org/vlc/playlist/ns/0/">http-user-agent=Foo/1</vlc:option>
              </extension>
              <extension application="urn:someone-else"><option name="header">Not: ours</option></extension>
            </track>
            <track><location>b.mp4</location></track>
        """)
        let result = PlaylistParser.parse(Data(text.utf8), location: local)
        XCTAssertEqual(result.items.count, 2)
        XCTAssertEqual(result.items[0].options, ["header": ["Authorization: Bearer xyz123", "User-Agent: Foo/1"], "bucket": ["sports"]])
        XCTAssertEqual(result.items[1].options, [:])
        XCTAssertEqual(result.diagnostics.count, 1)
        XCTAssertTrue(result.diagnostics[0].message.contains("without a name"))
    }

    func testMalformedTable() {
        let table: [(name: String, text: String, location: URL?, uris: [String], lines: [Int?], fatal: Bool)] = [
            ("track without location", "<playlist><trackList>\n<track><title>x</title></track>\n<track><location>a.mp4</location></track>\n</trackList></playlist>", nil,
             ["file:///media/lists/a.mp4"], [2], false),
            ("bad duration", "<playlist><trackList>\n<track><location>a.mp4</location>\n<duration>soon</duration></track></trackList></playlist>", nil,
             ["file:///media/lists/a.mp4"], [3], false),
            ("truncated: earlier tracks kept", "<playlist><trackList>\n<track><location>a.mp4</location></track>\n<track><location>b.mp4</location></track>\n<track><location>c.m", nil,
             ["file:///media/lists/a.mp4", "file:///media/lists/b.mp4"], [4], false),
            ("mismatched tag", "<playlist><trackList>\n<track><location>a.mp4</location></track>\n<track><location>b.mp4</title></track>\n</trackList></playlist>", nil,
             ["file:///media/lists/a.mp4"], [3], false),
            ("entity declarations refused", "<?xml version=\"1.0\"?>\n<!DOCTYPE p [\n<!ENTITY a \"aaaaaaaaaa\">\n]>\n<playlist><trackList><track><location>&a;</location></track></trackList></playlist>", nil,
             [], [3], true),
            ("not XML", "<playlist this is not xml", nil, [], [1], true),
            ("network XSPF may not point at local files", "<playlist><trackList>\n<track><location>file:///etc/passwd</location></track>\n<track><location>v.mp4</location></track>\n</trackList></playlist>",
             URL(string: "http://127.0.0.1:9/p/mix.xspf")!, ["http://127.0.0.1:9/p/v.mp4"], [2], false),
        ]
        for row in table {
            let result = PlaylistParser.parse(Data(row.text.utf8), location: row.location ?? local)
            XCTAssertEqual(result.format, .xspf, row.name)
            XCTAssertEqual(result.items.map(\.uri), row.uris, row.name)
            XCTAssertEqual(result.diagnostics.map(\.line), row.lines, "\(row.name): \(result.diagnostics)")
            XCTAssertEqual(result.isFatal, row.fatal, "\(row.name): \(result.diagnostics)")
        }
    }

    func testXMLErrorMessageIsSpecific() {
        let result = PlaylistParser.parse(Data("<playlist><trackList>\n<track><location>a.mp4</location></track>\n<track>".utf8), location: local)
        XCTAssertEqual(result.items.count, 1)
        let text = result.diagnostics.map(\.description).joined()
        XCTAssertTrue(text.hasPrefix("line "), text)
        XCTAssertTrue(text.contains("XML error"), text)
        XCTAssertTrue(text.contains("1 track(s) before it were kept"), text)
    }

    /// Fuzz finding: encoding="UTF-7" in the declaration made libxml2 (through XMLParser) SIGSEGV.
    /// The text is decoded before XMLParser sees it; an encoding Reel did not decode is refused.
    func testUndecodableDeclaredEncodingIsRefusedNotCrashing() throws {
        let reproducer = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../Fuzz/corpus/xspf/regress-utf7-encoding-segv.xspf").standardizedFileURL
        let data = try Data(contentsOf: reproducer)
        XCTAssertTrue(String(decoding: data, as: UTF8.self).contains("encoding=\"UTF-7\""))
        // The reproducer as the fuzz target fed it (it also holds a NUL, which PlaylistParser refuses first).
        let direct = XSPFParser.parse(text: String(decoding: data, as: UTF8.self), location: local)
        XCTAssertEqual(direct.items, [])
        XCTAssertEqual(direct.diagnostics.map(\.severity), [.fatal])
        XCTAssertEqual(direct.diagnostics.first?.line, 1)
        XCTAssertEqual(direct.diagnostics.first?.message, "the XML declaration says encoding “UTF-7”, which Reel cannot read: save the playlist as UTF-8")
        for input in [Data(doc("<track><location>a.mp4</location></track>").replacingOccurrences(of: "UTF-8", with: "UTF-7").utf8),
                      Data("<?xml version='1.0' encoding = 'ebcdic-cp-us'?>\n<playlist/>".utf8)] {
            let result = PlaylistParser.parse(input, location: local)
            XCTAssertEqual(result.format, .xspf)
            XCTAssertEqual(result.items, [])
            XCTAssertEqual(result.diagnostics.map(\.severity), [.fatal], "\(result.diagnostics)")
            XCTAssertEqual(result.diagnostics.first?.line, 1)
            XCTAssertTrue(result.diagnostics.first?.message.contains("which Reel cannot read: save the playlist as UTF-8") == true, "\(result.diagnostics)")
        }
        // Through the whole reader: a NUL after a decodable declaration is refused, not parsed.
        let nul = XSPFParser.parse(text: "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<playlist>\u{0}</playlist>", location: local)
        XCTAssertEqual(nul.diagnostics, [PlaylistDiagnostic(line: 2, message: "a NUL character: not an XML playlist", severity: .fatal)])
    }

    /// Encodings Reel decodes itself load whatever the declaration says; the text reaches
    /// XMLParser as UTF-8 (a Latin-1 file's “é” stays “é”, not mojibake).
    func testDecodedEncodingsLoad() {
        let latin1 = Data("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<playlist version=\"1\" xmlns=\"http://xspf.org/ns/0/\"><trackList><track><location>a.mp4</location><title>Caf\u{E9}</title></track></trackList></playlist>\n".unicodeScalars.map { UInt8($0.value) })
        let latinResult = PlaylistParser.parse(latin1, location: local)
        XCTAssertEqual(latinResult.items.map(\.title), ["Café"])
        XCTAssertEqual(latinResult.items.map(\.uri), ["file:///media/lists/a.mp4"])
        XCTAssertFalse(latinResult.diagnostics.contains { $0.severity == .fatal }, "\(latinResult.diagnostics)")
        let utf16 = doc("<track><location>b.mp4</location><title>日本語</title></track>").replacingOccurrences(of: "UTF-8", with: "UTF-16")
        let utf16Result = PlaylistParser.parse(Data([0xFF, 0xFE]) + utf16.data(using: .utf16LittleEndian)!, location: local)
        XCTAssertEqual(utf16Result.items.map(\.title), ["日本語"])
        XCTAssertEqual(utf16Result.diagnostics, [])
        let single = doc("<track><location>c.mp4</location></track>").replacingOccurrences(of: "encoding=\"UTF-8\"", with: "encoding = 'utf8'")
        XCTAssertEqual(PlaylistParser.parse(Data(single.utf8), location: local).items.map(\.uri), ["file:///media/lists/c.mp4"])
    }

    func testASplicedProcessingInstructionDoesNotCrash() {
        // `<<?å?>?å?>`: removing the first PI splices '<' and the rest into a new, empty PI,
        // which FoundationXML dereferences as NULL (found by the fuzz smoke run on a fresh clone).
        let bytes: [UInt8] = [0x3c, 0x3c, 0x3f, 0xe5, 0x3f, 0x3e, 0x3f, 0xe5, 0x3f, 0x3e]
        let result = PlaylistParser.parse(Data(bytes), location: URL(fileURLWithPath: "/tmp/spliced.xspf"))
        XCTAssertTrue(result.items.isEmpty)
    }
}

extension XSPFParserTests {
    /// XML Base (the XSPF spec resolves relative locations with it): on the playlist, on the
    /// trackList, on a track (relative to the outer one); never from a network playlist to files.
    func testXMLBase() {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <playlist version="1" xmlns="http://xspf.org/ns/0/" xml:base="http://media.example/music/">
              <trackList>
                <track><location>a%20b.mp3</location></track>
                <track xml:base="live/"><location>c.mp3</location></track>
                <track xml:base="https://other.example/x/"><location>d.mp3</location></track>
                <track><location>https://abs.example/e.mp3</location></track>
              </trackList>
            </playlist>
            """
        let local = XSPFParser.parse(text: text, location: self.local)
        XCTAssertEqual(local.items.map(\.uri), ["http://media.example/music/a%20b.mp3", "http://media.example/music/live/c.mp3",
                                                "https://other.example/x/d.mp3", "https://abs.example/e.mp3"])
        XCTAssertTrue(local.diagnostics.isEmpty, "\(local.diagnostics)")

        let sneaky = """
            <?xml version="1.0" encoding="UTF-8"?>
            <playlist version="1" xmlns="http://xspf.org/ns/0/" xml:base="file:///etc/">
              <trackList><track><location>passwd</location></track></trackList>
            </playlist>
            """
        let remote = XSPFParser.parse(text: sneaky, location: URL(string: "https://lists.example/mix.xspf")!)
        XCTAssertEqual(remote.items.map(\.uri), ["https://lists.example/passwd"], "resolved against the playlist, not the file base")
        XCTAssertTrue(remote.diagnostics.contains { $0.message.contains("xml:base points a network playlist at local files") }, "\(remote.diagnostics)")
    }
}
