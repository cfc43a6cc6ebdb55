import Foundation
import ReelCore
import XCTest

final class HeaderScopeTests: XCTestCase {
    func testScopeByOriginAndAllowedHosts() {
        let scope = HeaderScope(itemURL: URL(string: "https://Origin.Example.com:8443/a.m3u8"),
                                allowedHosts: ["cdn.example.net", "*.edge.example.org", "media.example.net:9443"])
        let cases: [(String, Bool)] = [
            ("https://ORIGIN.example.com:8443/seg.ts", true),
            // Another port or scheme of the same host is another origin (issue 12).
            ("https://origin.example.com/seg.ts", false),
            ("http://ORIGIN.example.com:80/seg.ts", false),
            ("http://origin.example.com:8443/seg.ts", false),
            ("https://media.example.net:9443/seg.ts", true),
            ("https://media.example.net/seg.ts", false),
            ("https://cdn.example.net:444/seg.ts", true),
            ("http://cdn.example.net/seg.ts", false),
            ("https://cdn.example.net/seg.ts", true),
            ("https://a.edge.example.org/seg.ts", true),
            ("https://edge.example.org/seg.ts", false),
            ("https://evil.example.com/seg.ts", false),
            ("https://origin.example.com.evil.net/seg.ts", false),
            ("https://cdn.example.net.evil/seg.ts", false),
        ]
        for (url, expected) in cases { XCTAssertEqual(scope.allows(URL(string: url)!), expected, url) }
    }

    func testRedirectCredentialRules() {
        let scope = HeaderScope(itemURL: URL(string: "http://127.0.0.1:8000/m.m3u8"), allowedHosts: ["localhost"])
        let cases: [(String, String, Bool)] = [
            ("http://127.0.0.1:8000/a", "http://127.0.0.1:8000/b", true),
            // The same host on another port is another origin (issue 12: it kept them).
            ("http://127.0.0.1:8000/a", "http://127.0.0.1:9000/b", false),
            ("http://127.0.0.1:8000/a", "http://127.0.0.2:8000/b", false),
            ("http://127.0.0.1:8000/a", "http://localhost:8000/b", true),
            ("http://127.0.0.1:8000/a", "http://localhost:9000/b", true),
            ("https://127.0.0.1/a", "http://127.0.0.1/b", false),
            ("http://127.0.0.1:8000/a", "https://127.0.0.1/b", false),
            ("http://127.0.0.1/a", "ftp://127.0.0.1/b", false),
        ]
        for (from, to, expected) in cases {
            XCTAssertEqual(RedirectCredentialRule.keepsCredentials(from: URL(string: from)!, to: URL(string: to)!, scope: scope), expected, "\(from) → \(to)")
        }
        XCTAssertEqual(RedirectCredentialRule.target(location: "/x?y=1", requestURL: URL(string: "http://h:1/a/b")!)?.absoluteString, "http://h:1/x?y=1")
        XCTAssertNil(RedirectCredentialRule.target(location: "file:///etc/passwd", requestURL: URL(string: "http://h/")!))
    }

    func testHeaderFieldParsing() {
        let ok: [(String, String, String)] = [
            ("Authorization: Bearer abc", "Authorization", "Bearer abc"),
            ("X-Token:value:with:colons", "X-Token", "value:with:colons"),
            ("  X-Empty :  ", "X-Empty", ""),
        ]
        for (text, name, value) in ok {
            let h = try? HeaderField(parsing: text)
            XCTAssertEqual(h?.name, name, text)
            XCTAssertEqual(h?.value, value, text)
        }
        let bad: [(String, HeaderField.ParseError)] = [
            ("NoColon", .missingColon("NoColon")),
            ("Bad Name: x", .invalidName("Bad Name")),
            (": x", .invalidName("")),
            ("Host: evil", .invalidName("Host")),
            ("X-A: a\r\nX-Injected: 1", .invalidValue(name: "X-A")),
        ]
        for (text, expected) in bad {
            XCTAssertThrowsError(try HeaderField(parsing: text), text) { XCTAssertEqual($0 as? HeaderField.ParseError, expected, text) }
        }
        XCTAssertEqual((try? HeaderField(parsing: "Authorization: Bearer abcdef"))?.description, "Authorization: ***")
    }
}
