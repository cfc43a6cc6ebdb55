import Foundation
import ReelCore
import XCTest

/// `HLSMasterFilter`: the variants whose playlists failed leave the master, every other byte stays.
final class HLSMasterFilterTests: XCTestCase {
    private let base = URL(string: "https://cdn.example.com/show/master.m3u8")!
    private let master = """
    #EXTM3U\r
    #EXT-X-VERSION:6\r
    #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="en",URI="audio/en.m3u8"\r
    #EXT-X-STREAM-INF:BANDWIDTH=1249072,AVERAGE-BANDWIDTH=1057312,RESOLUTION=640x360,AUDIO="a"\r
    360p/index.m3u8\r
    #EXT-X-STREAM-INF:BANDWIDTH=3374976,AVERAGE-BANDWIDTH=2837596,RESOLUTION=1280x720,AUDIO="a"\r
    \r
    # a comment between the tag and its URI\r
    https://cdn.example.com/show/720p/index.m3u8?sig=abc\r
    #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=150000,URI="360p/iframes.m3u8"\r

    """

    func testTheVariantsAreFoundResolved() {
        XCTAssertEqual(HLSMasterFilter.variantURLs(in: master, base: base).map(\.absoluteString),
                       ["https://cdn.example.com/show/360p/index.m3u8", "https://cdn.example.com/show/720p/index.m3u8?sig=abc"])
        XCTAssertEqual(HLSMasterFilter.variantURLs(in: "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\na.ts\n", base: base), [], "a media playlist")
    }

    func testAFailedVariantLeavesWithItsTagAndEverythingElseStays() {
        let rows: [(String, Set<String>, [String], [String])] = [
            ("the second (absolute, after a blank and a comment)", ["https://cdn.example.com/show/720p/index.m3u8?sig=abc"],
             ["360p/index.m3u8", "#EXT-X-MEDIA", "#EXT-X-I-FRAME-STREAM-INF"], ["720p", "RESOLUTION=1280x720", "a comment"]),
            ("the first (relative)", ["https://cdn.example.com/show/360p/index.m3u8"], ["720p/index.m3u8?sig=abc", "#EXT-X-VERSION:6"], ["360p/index.m3u8"]),
            ("every variant: kept as it is (the item fails with the variant's own error)",
             ["https://cdn.example.com/show/360p/index.m3u8", "https://cdn.example.com/show/720p/index.m3u8?sig=abc"], ["360p/index.m3u8", "720p"], []),
            ("none", [], ["360p/index.m3u8", "720p"], []),
            ("a URL the master does not list", ["https://other.example.com/x.m3u8"], ["360p/index.m3u8", "720p"], []),
        ]
        for (name, failed, present, absent) in rows {
            let out = HLSMasterFilter.removing(Set(failed.map { URL(string: $0)! }), from: master, base: base)
            for p in present { XCTAssertTrue(out.contains(p), "\(name): \(p) stays in \(out)") }
            for a in absent { XCTAssertFalse(out.contains(a), "\(name): \(a) leaves \(out)") }
            XCTAssertFalse(out.contains("\n\n") && !master.contains("\n\n"), name)
            XCTAssertEqual(out.unicodeScalars.filter { $0 == "\r" }.count, out.unicodeScalars.filter { $0 == "\n" }.count, "\(name): CRLF kept")
            if case .master? = try? HLSPlaylist.parse(out) {} else { XCTFail("\(name): still a master") }
        }
    }
}
