import Foundation
import ReelCore
import XCTest

final class HeaderEntryOptionsTests: XCTestCase {
    func testDirectives() throws {
        var o = ProtectedEntryOptions()
        let lines = [
            "#REEL-HEADER:X-Api-Key: 9f8e7d6c5b", "#reel-header-host:cdn.example.net", "#REEL-TOKEN-BUCKET:sports",
            "#REEL-TOKEN-PLACEMENT:Query", "#REEL-FINISHED", "#REEL-ENDS-AT:2026-11-21T20:00:00Z",
            "#EXTVLCOPT:http-user-agent=Reel Test/1.0", "#EXTVLCOPT:http-referrer=https://example.com/",
        ]
        for line in lines { XCTAssertTrue(try o.apply(line), line) }
        XCTAssertEqual(o.headers.map(\.name), ["X-Api-Key", "User-Agent", "Referer"])
        XCTAssertEqual(o.headers.map(\.value), ["9f8e7d6c5b", "Reel Test/1.0", "https://example.com/"])
        XCTAssertEqual(o.allowedHosts, ["cdn.example.net"])
        XCTAssertEqual(o.bucket, "sports")
        XCTAssertEqual(o.placement, .query)
        XCTAssertTrue(o.finished)
        XCTAssertEqual(o.endsAt, ISO8601DateFormatter().date(from: "2026-11-21T20:00:00Z"))
        XCTAssertFalse(o.isEmpty)
    }

    func testOtherLinesAreNotOurs() throws {
        var o = ProtectedEntryOptions()
        for line in ["#EXTM3U", "#EXTINF:-1,Title", "#EXTVLCOPT:network-caching=1000", "http://h/x.m3u8", "# comment"] {
            XCTAssertFalse(try o.apply(line), line)
        }
        XCTAssertTrue(o.isEmpty)
    }

    func testBadValuesAreClearErrors() {
        let cases: [(String, String)] = [
            ("#REEL-HEADER:NoColon", "#REEL-HEADER: A header must be written 'Name: value'."),
            ("#REEL-TOKEN-PLACEMENT:cookie", "#REEL-TOKEN-PLACEMENT: 'cookie' is not header, query or both"),
            ("#REEL-ENDS-AT:tomorrow", "#REEL-ENDS-AT: 'tomorrow' is not an ISO 8601 date-time"),
            ("#REEL-TOKEN-BUCKET:", "#REEL-TOKEN-BUCKET: needs a bucket name"),
            ("#REEL-HEADER-HOST:", "#REEL-HEADER-HOST: needs a host name"),
        ]
        for (line, message) in cases {
            var o = ProtectedEntryOptions()
            XCTAssertThrowsError(try o.apply(line), line) { XCTAssertEqual("\($0)", message, line) }
        }
    }
}
