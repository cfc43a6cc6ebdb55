import Foundation
import ReelCore
import XCTest

final class HeaderEntryOptionsTests: XCTestCase {
    func testOptionsFromAPlaylistEntry() throws {
        let o = try ProtectedEntryOptions(options: [
            "header": ["X-Api-Key: 9f8e7d6c5b", "Referer: https://example.com/"], "header-host": ["cdn.example.net"],
            "bucket": ["news", "sports"], "token-placement": ["Query"], "finished": ["yes"], "ends-at": ["2026-11-21T20:00:00Z"],
            "title": ["not ours"],
        ])
        XCTAssertEqual(o.headers.map(\.name), ["X-Api-Key", "Referer"])
        XCTAssertEqual(o.headers.map(\.value), ["9f8e7d6c5b", "https://example.com/"])
        XCTAssertEqual(o.allowedHosts, ["cdn.example.net"])
        XCTAssertEqual(o.bucket, "sports", "the last value wins")
        XCTAssertEqual(o.placement, .query)
        XCTAssertTrue(o.finished)
        XCTAssertEqual(o.endsAt, ISO8601DateFormatter().date(from: "2026-11-21T20:00:00Z"))
        XCTAssertFalse(o.isEmpty)
        XCTAssertTrue(try ProtectedEntryOptions(options: ["title": ["x"]]).isEmpty)
        XCTAssertTrue(try ProtectedEntryOptions(options: ["finished": [""]]).finished)
        XCTAssertFalse(try ProtectedEntryOptions(options: ["finished": ["no"]]).finished)
    }

    func testBadValuesAreClearErrors() {
        let cases: [([String: [String]], String)] = [
            (["header": ["NoColon"]], "Playlist option 'header': A header must be written 'Name: value'."),
            (["header": ["X-A: secret-value\r\nX-B: 1"]], "Playlist option 'header': The value of header 'X-A' contains a line break or control character."),
            (["token-placement": ["cookie"]], "Playlist option 'token-placement': 'cookie' is not header, query or both"),
            (["ends-at": ["tomorrow"]], "Playlist option 'ends-at': 'tomorrow' is not an ISO 8601 date-time"),
            (["bucket": [""]], "Playlist option 'bucket': needs a bucket name"),
            (["header-host": [""]], "Playlist option 'header-host': needs a host name"),
            (["finished": ["maybe"]], "Playlist option 'finished': 'maybe' is not yes or no"),
        ]
        for (options, message) in cases {
            XCTAssertThrowsError(try ProtectedEntryOptions(options: options), message) { XCTAssertEqual("\($0)", message) }
        }
    }
}
