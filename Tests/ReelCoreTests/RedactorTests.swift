import ReelCore
import XCTest

final class RedactorTests: XCTestCase {
    func testURLs() {
        let table: [(String, String)] = [
            ("https://h/a.m3u8?Authorization=abc123&x=1", "https://h/a.m3u8?Authorization=***&x=1"),
            ("https://user:pw@h/a.mp4", "https://***@h/a.mp4"),
            ("https://h/seg.ts?token=t0k3n&sig=deadbeef&n=5", "https://h/seg.ts?token=***&sig=***&n=5"),
            ("https://h/plain.mp4", "https://h/plain.mp4"),
            ("file:///home/u/a.mp4", "file:///home/u/a.mp4"),
        ]
        for (input, expected) in table { XCTAssertEqual(Redactor.redactURL(input), expected) }
    }

    func testText() {
        XCTAssertEqual(Redactor.redactText("Authorization: Bearer abc.def-ghi"), "Authorization: ***")
        XCTAssertEqual(Redactor.redactText("sent bearer abc.def"), "sent bearer ***")
        XCTAssertEqual(Redactor.redactText("GET /a?access_token=zzz HTTP/1.1"), "GET /a?access_token=*** HTTP/1.1")
        XCTAssertEqual(Redactor.redactText("nothing to hide"), "nothing to hide")
    }

    func testRegisteredSecretsAreMaskedEverywhere() {
        let secret = "s3cr3t-\(UInt32.random(in: 0...UInt32.max))"
        Redactor.register(secret: secret)
        XCTAssertEqual(Redactor.redactText("token is \(secret)!"), "token is ***!")
        XCTAssertFalse(Redactor.redactURL("https://h/\(secret)/a.ts").contains(secret))
        Redactor.register(secret: "abc")  // too short to mask safely: ignored
        XCTAssertEqual(Redactor.redactText("abc"), "abc")
    }

    func testHeaders() {
        XCTAssertEqual(Redactor.redactHeader(name: "Authorization", value: "Bearer x"), "Authorization: ***")
        XCTAssertEqual(Redactor.redactHeader(name: "Accept", value: "*/*"), "Accept: */*")
    }

    /// Issue 28, item 11: signed URLs under names the redactor did not know were saved 0644 and
    /// written to recent files and resume keys. Known schemes by name, and any value of signature
    /// shape by its look.
    func testSignedURLsUnderOtherNamesAreMasked() {
        let rows: [(String, String, [String], [String])] = [
            ("nginx secure_link", "https://cdn.example.com/v.m3u8?md5=Xj3kQ9zL2mN8pR4t&expires=1795550400", ["Xj3kQ9zL2mN8pR4t"], ["expires=1795550400"]),
            ("hmac", "https://h/v.mp4?hmac=0f3a9c2b7d1e4f5a6b8c9d0e1f2a3b4c&exp=1795550400", ["0f3a9c2b7d1e4f5a"], ["exp=1795550400"]),
            ("wowza", "https://h/live/playlist.m3u8?wowzatokenhash=aB3_dE5-fG7hI9jK1lM3nO5pQ7=", ["aB3_dE5"], []),
            ("pass", "https://h/x.m3u8?user=ann&pass=hunter2hunter2", ["hunter2"], ["user=ann"]),
            ("any name, signature shape", "https://h/x.m3u8?st=9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08&quality=hd",
             ["9f86d081884c7d65"], ["quality=hd"]),
            ("ordinary values stay", "https://h/x.m3u8?lang=en&id=12345&title=ABCDEFGHIJKLMNOPQ", [], ["lang=en", "id=12345", "title=ABCDEFGHIJKLMNOPQ"]),
            // Issue 56: short values under these names reached REEL_DEBUG's lines.
            ("cred, passcode, ticket, hmac", "http://h/x.mp4?hmac=abcdef1&cred=xyzw1&passcode=12345&ticket=qqqq1&x-hmac-sig=zz9&lang=en",
             ["abcdef1", "xyzw1", "12345", "qqqq1", "zz9"], ["lang=en"]),
        ]
        for (name, url, gone, kept) in rows {
            for redacted in [Redactor.redactURL(url), Redactor.redactText("fetching \(url) failed")] {
                for g in gone { XCTAssertFalse(redacted.contains(g), "\(name): \(redacted)") }
                for k in kept { XCTAssertTrue(redacted.contains(k), "\(name): \(k) in \(redacted)") }
            }
        }
        XCTAssertNil(ResumeKey.key(for: "https://cdn.example.com/v.m3u8?md5=Xj3kQ9zL2mN8pR4t&expires=1795550400")?.range(of: "Xj3k"),
                     "no resume key keeps a signature")
    }

    /// Issue 28, item 15: thousands of registered secrets (a socket client's header per append)
    /// are all masked in one pass over the text; overlapping and prefix-sharing secrets too.
    func testManyRegisteredSecretsAreMaskedInOnePass() {
        let secrets = (0..<3_000).map { "hdr-secret-\($0)-\(String($0 * 7919, radix: 36))" }
        for s in secrets { Redactor.register(secret: s) }
        let text = secrets.enumerated().map { "item \($0.offset): X-Key: \($0.element);" }.joined(separator: "\n")
        let redacted = Redactor.redactText(text)
        for s in secrets.prefix(50) + secrets.suffix(50) { XCTAssertFalse(redacted.contains(s), s) }
        XCTAssertEqual(redacted.components(separatedBy: Redactor.mask).count - 1, secrets.count)
        Redactor.register(secret: "prefix-shared-LONGER")
        Redactor.register(secret: "prefix-shared")
        XCTAssertEqual(Redactor.redactText("a prefix-shared-LONGER b prefix-shared c"), "a *** b *** c", "the longest at each place")
        XCTAssertEqual(Redactor.redactText("é prefix-shared é"), "é *** é", "multi-byte text around a secret")
    }

    func testCredentialsUnderNamesNobodyListedAreMasked() {
        for (name, secret) in [("pw", true), ("api-key", true), ("client-secret", true), ("pin", true), ("refreshToken", true), ("x-auth", true),
                               ("user_password", true), ("SessionID", true), ("id", false), ("lang", false), ("start", false), ("quality", false)] {
            let url = "https://cdn.example/v.m3u8?\(name)=abc123&id=7"
            XCTAssertEqual(Redactor.redactURL(url).contains("abc123"), !secret, name)
            XCTAssertEqual(Redactor.redactText("GET \(url) failed").contains("abc123"), !secret, "free text: \(name)")
            XCTAssertEqual(Redactor.isSecretParameter(name), secret, name)
        }
    }
}

