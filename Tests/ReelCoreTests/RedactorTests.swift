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
}
