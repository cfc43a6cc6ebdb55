import Foundation
import ReelCore
import XCTest

final class PlaylistWriterTests: XCTestCase {
    private let directory = URL(fileURLWithPath: "/media/lists", isDirectory: true)

    private var items: [QueueItem] {
        [
            QueueItem(uri: "file:///media/lists/a.mp4", title: "Plain", duration: 12),
            QueueItem(uri: "file:///media/lists/sub/My%20Song%20%23%25.mp4", title: "Café, \"quoted\" & <tagged>", duration: 12.5),
            QueueItem(uri: "file:///elsewhere/b.mp4"),
            QueueItem(uri: "http://127.0.0.1:8080/x.m3u8?a=1&b=2", title: "Line\nbreak", duration: nil,
                      options: ["header": ["Authorization: Bearer xyz123", "X-A: 1"], "bucket": ["sports & news"]]),
            QueueItem(uri: "file:///media/lists/%23hash.mp4", title: "☕ 日本語"),
        ]
    }

    func testRoundTripTable() {
        for format in PlaylistWriter.Format.allCases {
            for dir in [directory, nil] {
                let text = PlaylistWriter.write(items, format: format, directory: dir, title: "Mine")
                let name = format == .m3u8 ? "saved.m3u8" : "saved.xspf"
                let parsed = PlaylistParser.parse(Data(text.utf8), location: directory.appendingPathComponent(name))
                let label = "\(format) relative=\(dir != nil)"
                XCTAssertEqual(parsed.diagnostics, [], "\(label):\n\(text)")
                XCTAssertEqual(parsed.items.map(\.uri), items.map(\.uri), label)
                XCTAssertEqual(parsed.items.map(\.title), items.map { $0.title?.replacingOccurrences(of: "\n", with: format == .m3u8 ? " " : "\n") }, label)
                XCTAssertEqual(parsed.items.map(\.duration), items.map(\.duration), label)
                XCTAssertEqual(parsed.items.map(\.options), items.map(\.options), label)
            }
        }
    }

    func testM3U8Text() {
        let text = PlaylistWriter.m3u8(Array(items.prefix(3)), directory: directory)
        XCTAssertEqual(text, """
        #EXTM3U
        #EXTINF:12,Plain
        a.mp4
        #EXTINF:12.5,Café, "quoted" & <tagged>
        sub/My Song #%.mp4
        /elsewhere/b.mp4

        """)
    }

    func testXSPFIsEscapedXML() {
        let text = PlaylistWriter.xspf([items[1], items[3]], directory: directory)
        XCTAssertTrue(text.contains("<title>Café, &quot;quoted&quot; &amp; &lt;tagged&gt;</title>"), text)
        XCTAssertTrue(text.contains("<location>sub/My%20Song%20%23%25.mp4</location>"), text)
        XCTAssertTrue(text.contains("<location>http://127.0.0.1:8080/x.m3u8?a=1&amp;b=2</location>"), text)
        XCTAssertTrue(text.contains("<reel:option name=\"bucket\">sports &amp; news</reel:option>"), text)
        XCTAssertEqual(PlaylistWriter.escape("a\u{01}b\u{0B}c"), "abc", "characters XML cannot carry are dropped")
    }

    func testSecretsAndFormatByName() {
        XCTAssertTrue(PlaylistWriter.containsSecrets(items))
        XCTAssertFalse(PlaylistWriter.containsSecrets(Array(items.prefix(3))))
        for secret in ["pw=hunter2", "api-key=k1", "client-secret=c2", "pin=1234", "a=1"] {
            XCTAssertTrue(PlaylistWriter.containsSecrets([QueueItem(uri: "https://h.test/a.mp4?\(secret)")]), "any query that does not name content: \(secret)")
        }
        XCTAssertFalse(PlaylistWriter.containsSecrets([QueueItem(uri: "https://h.test/a.mp4?episode=3&lang=en")]))
        XCTAssertEqual(PlaylistWriter.Format(fileName: "x.M3U8"), .m3u8)
        XCTAssertEqual(PlaylistWriter.Format(fileName: "x.xspf"), .xspf)
        XCTAssertNil(PlaylistWriter.Format(fileName: "x.pls"))
    }
}
