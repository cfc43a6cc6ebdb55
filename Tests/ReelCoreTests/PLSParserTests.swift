import Foundation
import ReelCore
import XCTest

final class PLSParserTests: XCTestCase {
    private let local = URL(fileURLWithPath: "/media/lists/radio.pls")

    func testTable() {
        let table: [(name: String, text: String, location: URL?, uris: [String], titles: [String?]?, durations: [Double?]?, lines: [Int?])] = [
            ("well-formed", "[playlist]\nFile1=a.mp4\nTitle1=A\nLength1=12\nFile2=http://127.0.0.1/s\nTitle2=Stream\nLength2=-1\nNumberOfEntries=2\nVersion=2\n", nil,
             ["file:///media/lists/a.mp4", "http://127.0.0.1/s"], ["A", "Stream"], [12, nil], []),
            ("ordered by number, keys in any case, CRLF", "[Playlist]\r\nfile2=b.mp4\r\nFILE1=a.mp4\r\ntitle1=First\r\nNumberOfEntries=2\r\n", nil,
             ["file:///media/lists/a.mp4", "file:///media/lists/b.mp4"], ["First", nil], nil, []),
            ("CR line ends and comments", "[playlist]\r; comment\rFile1=a b.mp4\rNumberOfEntries=1", nil,
             ["file:///media/lists/a%20b.mp4"], nil, nil, []),
            ("missing header still loads", "File1=a.mp4\nTitle1=A\n", nil, ["file:///media/lists/a.mp4"], ["A"], nil, [1]),
            ("malformed lines", "[playlist]\nFile1=a.mp4\nthis is not a key\nTitle3=Ghost\nLength1=long\nFileX=b.mp4\nFile1=dup.mp4\nColor1=red\nNumberOfEntries=5\n", nil,
             ["file:///media/lists/a.mp4"], nil, nil, [3, 4, 5, 6, 7, 8, 9]),
            ("other sections are ignored", "[playlist]\nFile1=a.mp4\n[other]\nFile2=b.mp4\n", nil, ["file:///media/lists/a.mp4"], nil, nil, [3]),
            ("network PLS may not point at local files", "[playlist]\nFile1=/abs/a.mp4\nFile2=file:///etc/passwd\nFile3=b.mp4\n", URL(string: "http://127.0.0.1:8000/r/radio.pls")!,
             ["http://127.0.0.1:8000/abs/a.mp4", "http://127.0.0.1:8000/r/b.mp4"], nil, nil, [3]),
            ("not a PLS at all", "hello\n", nil, [], nil, nil, [1, 1, nil]),
        ]
        for row in table {
            let result = PlaylistParser.parse(Data(row.text.utf8), location: row.location ?? local)
            XCTAssertEqual(result.format, .pls, row.name)
            XCTAssertEqual(result.items.map(\.uri), row.uris, row.name)
            if let titles = row.titles { XCTAssertEqual(result.items.map(\.title), titles, row.name) }
            if let durations = row.durations { XCTAssertEqual(result.items.map(\.duration), durations, row.name) }
            XCTAssertEqual(result.diagnostics.map(\.line), row.lines, "\(row.name): \(result.diagnostics)")
        }
    }

    func testContentWinsOverExtension() {
        let result = PlaylistParser.parse(Data("[playlist]\nFile1=a.mp4\n".utf8), location: URL(fileURLWithPath: "/m/misnamed.m3u"))
        XCTAssertEqual(result.format, .pls)
        XCTAssertEqual(result.items.map(\.uri), ["file:///m/a.mp4"])
    }
}
