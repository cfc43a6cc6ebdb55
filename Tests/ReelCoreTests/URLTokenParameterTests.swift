import ReelCore
import XCTest

final class URLTokenParameterTests: XCTestCase {
    func testTheTable() {
        let rows: [(String, (String, String)?)] = [
            ("https://e.example/live/master.m3u8?Authorization=abc", ("https://e.example/live/master.m3u8", "abc")),
            ("https://e.example/m.m3u8?a=1&Authorization=Bearer%20x.y.z&b=2", ("https://e.example/m.m3u8?a=1&b=2", "Bearer x.y.z")),
            ("https://e.example/m.m3u8?Authorization=t1&Authorization=t2", ("https://e.example/m.m3u8", "t1")),
            ("https://e.example/m.m3u8?x=1&Authorization=t#frag", ("https://e.example/m.m3u8?x=1#frag", "t")),
            ("https://e.example/m.m3u8?authorization=lower", nil),
            ("https://e.example/m.m3u8?Authorization=", nil),
            ("https://e.example/m.m3u8", nil),
            ("https://e.example/m.m3u8?AuthorizationX=1", nil),
        ]
        for (uri, expected) in rows {
            let got = URLTokenParameter.extract(from: uri)
            XCTAssertEqual(got?.uri, expected?.0, uri)
            XCTAssertEqual(got?.token, expected?.1, uri)
        }
    }
}
