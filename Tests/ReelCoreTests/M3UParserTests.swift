import Foundation
import ReelCore
import XCTest

final class M3UParserTests: XCTestCase {
    private let local = URL(fileURLWithPath: "/media/lists/party.m3u")
    private let remote = URL(string: "http://127.0.0.1:8080/lists/party.m3u")!

    private struct Expect {
        var uris: [String]
        var titles: [String?]? = nil
        var durations: [Double?]? = nil
        var diagnosticLines: [Int?] = []
    }

    func testTable() {
        let table: [(name: String, text: String, location: URL?, expect: Expect)] = [
            ("relative and absolute paths", "a.mp4\nsub/b.mp4\n../c.mp4\n/abs/d.mp4\n", nil,
             Expect(uris: ["file:///media/lists/a.mp4", "file:///media/lists/sub/b.mp4", "file:///media/c.mp4", "file:///abs/d.mp4"])),
            ("extended with titles and durations", "#EXTM3U\n#EXTINF:12,Song One\na.mp4\n#EXTINF:-1,Live radio\nhttp://127.0.0.1/live\n# a comment\nc.mp4\n", nil,
             Expect(uris: ["file:///media/lists/a.mp4", "http://127.0.0.1/live", "file:///media/lists/c.mp4"],
                    titles: ["Song One", "Live radio", nil], durations: [12, nil, nil])),
            ("fractional duration, attributes with commas, title with a comma",
             "#EXTM3U\n#EXTINF:5.5 tvg-name=\"a,b\" group-title=\"x\",Title, with comma\nhttp://h/x\n", nil,
             Expect(uris: ["http://h/x"], titles: ["Title, with comma"], durations: [5.5])),
            ("spaces and a literal percent in file names", "My Song.mp4\n100%.mp4\n", nil,
             Expect(uris: ["file:///media/lists/My%20Song.mp4", "file:///media/lists/100%25.mp4"])),
            ("file URIs: percent-encoded, localhost, single slash", "file:///music/My%20Song.mp4\nfile://localhost/music/a.mp4\nfile:/music/b.mp4\n", nil,
             Expect(uris: ["file:///music/My%20Song.mp4", "file:///music/a.mp4", "file:///music/b.mp4"])),
            ("a file URI naming another host is refused", "file://otherhost/music/a.mp4\nb.mp4\n", nil,
             Expect(uris: ["file:///media/lists/b.mp4"], diagnosticLines: [1])),
            ("Windows separators", "sub\\b.mp4\n", nil, Expect(uris: ["file:///media/lists/sub/b.mp4"])),
            ("CRLF line ends", "#EXTM3U\r\n#EXTINF:1,A\r\na.mp4\r\n#EXTINF:2,B\r\nb.mp4\r\n", nil,
             Expect(uris: ["file:///media/lists/a.mp4", "file:///media/lists/b.mp4"], titles: ["A", "B"], durations: [1, 2])),
            ("CR line ends", "#EXTM3U\r#EXTINF:1,A\ra.mp4\r#EXTINF:2,B\rb.mp4", nil,
             Expect(uris: ["file:///media/lists/a.mp4", "file:///media/lists/b.mp4"], titles: ["A", "B"])),
            ("malformed #EXTINF lines keep their entries", "#EXTINF:abc,Bad number\na.mp4\n#EXTINF:3\nb.mp4\n#EXTINF:,No duration\nc.mp4\n#EXTINF:4,Orphan\n", nil,
             Expect(uris: ["file:///media/lists/a.mp4", "file:///media/lists/b.mp4", "file:///media/lists/c.mp4"],
                    titles: ["Bad number", nil, "No duration"], durations: [nil, 3, nil], diagnosticLines: [1, 3, 5, 7])),
            ("two #EXTINF in a row", "#EXTINF:1,First\n#EXTINF:2,Second\na.mp4\n", nil,
             Expect(uris: ["file:///media/lists/a.mp4"], titles: ["Second"], diagnosticLines: [1])),
            ("binary junk in a line is skipped", "a.mp4\nx\u{01}\u{02}\u{03}y\nb.mp4\n", nil,
             Expect(uris: ["file:///media/lists/a.mp4", "file:///media/lists/b.mp4"], diagnosticLines: [2])),
            ("network playlist: relative entries resolve against its URL, local files are dropped",
             "a.mp4\n/abs/b.mp4\nfile:///etc/passwd\nhttps://127.0.0.1:9/c.mp4\nsub dir/d.mp4\n", remote,
             Expect(uris: ["http://127.0.0.1:8080/lists/a.mp4", "http://127.0.0.1:8080/abs/b.mp4", "https://127.0.0.1:9/c.mp4", "http://127.0.0.1:8080/lists/sub%20dir/d.mp4"],
                    diagnosticLines: [3])),
            ("network playlist may not use other local schemes", "dvd:///dev/sr0\nv4l2:///dev/video0\nhttp://127.0.0.1/ok\n", remote,
             Expect(uris: ["http://127.0.0.1/ok"], diagnosticLines: [1, 2])),
            ("empty file", "", nil, Expect(uris: [])),
            ("only comments", "#EXTM3U\n# nothing here\n", nil, Expect(uris: [])),
        ]
        for row in table {
            let result = PlaylistParser.parse(Data(row.text.utf8), location: row.location ?? local)
            XCTAssertEqual(result.format, .m3u, row.name)
            XCTAssertEqual(result.items.map(\.uri), row.expect.uris, row.name)
            if let titles = row.expect.titles { XCTAssertEqual(result.items.map(\.title), titles, row.name) }
            if let durations = row.expect.durations { XCTAssertEqual(result.items.map(\.duration), durations, row.name) }
            XCTAssertEqual(result.diagnostics.map(\.line), row.expect.diagnosticLines, "\(row.name): \(result.diagnostics)")
            XCTAssertFalse(result.isFatal, row.name)
        }
    }

    func testDiagnosticsSayWhatAndWhere() {
        let result = PlaylistParser.parse(Data("#EXTINF:abc,T\na.mp4\nfile:///etc/passwd\n".utf8), location: remoteList)
        XCTAssertEqual(result.diagnostics.map(\.description), [
            "line 1: #EXTINF duration “abc” is not a number",
            "line 3: a playlist fetched over the network may not point at local files (“file:///etc/passwd”); entry dropped",
        ])
        let error = result.diagnostics[1].error(playlist: "party.m3u")
        XCTAssertEqual(error.kind, .invalidPlaylist)
        XCTAssertTrue(error.message.hasPrefix("party.m3u: line 3: "))
    }

    private var remoteList: URL { URL(string: "http://127.0.0.1:8080/party.m3u")! }

    func testPerEntryOptions() {
        let text = """
        #EXTM3U
        #EXTREEL:header=Authorization: Bearer xyz123
        #EXTREEL:header=X-Trace: 1
        #EXTREEL:bucket=sports
        #EXTREEL:Token-Placement = query
        #EXTINF:10,Game
        http://127.0.0.1/game.m3u8
        plain.mp4
        #EXTVLCOPT:http-user-agent=Foo/1.0
        #EXTVLCOPT:http-referrer=http://ref/
        #EXTVLCOPT:network-caching=1000
        http://127.0.0.1/vlc.mp4
        #EXTREEL:novalue
        #EXTREEL:=x
        last.mp4
        #EXTREEL:bucket=dangling
        """
        let result = PlaylistParser.parse(Data(text.utf8), location: local)
        XCTAssertEqual(result.items.count, 4)
        XCTAssertEqual(result.items[0].options, ["header": ["Authorization: Bearer xyz123", "X-Trace: 1"], "bucket": ["sports"], "token-placement": ["query"]])
        XCTAssertEqual(result.items[0].title, "Game")
        XCTAssertEqual(result.items[0].headers.map { "\($0.0)=\($0.1)" }, ["Authorization=Bearer xyz123", "X-Trace=1"])
        XCTAssertEqual(result.items[1].options, [:], "options apply to the next entry only")
        XCTAssertEqual(result.items[2].options, ["header": ["User-Agent: Foo/1.0", "Referer: http://ref/"]])
        XCTAssertEqual(result.items[3].options, [:])
        XCTAssertEqual(result.diagnostics.map(\.line), [13, 14, 16])
        for d in result.diagnostics { XCTAssertFalse(d.message.contains("xyz123")) }
    }

    func testHLSIsOneStream() {
        let table: [(name: String, text: String, location: URL)] = [
            ("media playlist file", "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:0\n#EXTINF:2.0,\nseg0.ts\n#EXTINF:2.0,\nseg1.ts\n#EXT-X-ENDLIST\n",
             URL(fileURLWithPath: "/media/hls/index.m3u8")),
            ("master playlist by URL", "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=640x360\nlow/index.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=2000000\nhigh/index.m3u8\n",
             URL(string: "http://127.0.0.1:8080/live/master.m3u8")!),
            ("tag after a long preamble, CRLF", "#EXTM3U\r\n" + String(repeating: "# comment\r\n", count: 50) + "#EXT-X-MEDIA-SEQUENCE:7\r\n#EXTINF:4,\r\nx.ts\r\n",
             URL(fileURLWithPath: "/media/hls/named.m3u")),
        ]
        for row in table {
            let result = PlaylistParser.parse(Data(row.text.utf8), location: row.location)
            XCTAssertEqual(result.format, .hls, row.name)
            XCTAssertEqual(result.items.map(\.uri), [row.location.absoluteString], row.name)
            XCTAssertTrue(result.diagnostics.isEmpty, row.name)
        }
    }

    /// A big list's first entries (issue 51): the same entries, titles and options as the whole
    /// read's first ones, and whether there are more; a list of exactly that many has no more.
    func testTheFirstEntriesAreTheWholeReadsFirstEntries() {
        var text = "#EXTM3U\n#PLAYLIST:Big\n"
        for i in 0..<50 {
            text += "#EXTINF:\(i),Title \(i)\n"
            if i % 7 == 0 { text += "#EXTREEL:start=\(i)\n" }
            text += i == 3 ? "bad\u{1}line\n" : "clip\(i).mp4\n"
        }
        let base = URL(fileURLWithPath: "/media/big.m3u")
        let whole = M3UParser.parse(text: text, location: base)
        XCTAssertFalse(whole.moreEntries)
        XCTAssertEqual(whole.items.count, 49)
        let head = M3UParser.parse(text: text, location: base, firstEntries: 10)
        XCTAssertTrue(head.moreEntries)
        XCTAssertEqual(head.title, "Big")
        XCTAssertEqual(head.items.map(\.uri), whole.items.prefix(10).map(\.uri))
        XCTAssertEqual(head.items.map(\.title), whole.items.prefix(10).map(\.title))
        XCTAssertEqual(head.items.map(\.options), whole.items.prefix(10).map(\.options))
        let exact = M3UParser.parse(text: text, location: base, firstEntries: 49)
        XCTAssertFalse(exact.moreEntries, "no entry after the 49th")
        XCTAssertEqual(exact.items.count, 49)
    }

}
