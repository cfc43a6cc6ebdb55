import Foundation
import ReelCore
import Synchronization
import XCTest

final class TokenProviderTests: XCTestCase {
    func testDocumentFormatAndBucketChoice() throws {
        let json = """
        {"tokens":[
          {"bucket":"sports","token":"Bearer old-sports-token","expires":"2020-01-01T00:00:00Z"},
          {"bucket":"sports","token":"Bearer new-sports-token","expires":"2099-01-01T00:00:00Z"},
          {"bucket":"sports","token":"Bearer mid-sports-token","expires":"2098-01-01T00:00:00.500Z"},
          {"bucket":"news","token":"news-token-123","extra":"ignored"}
        ]}
        """
        let doc = try TokenDocument.parse(Data(json.utf8))
        XCTAssertEqual(doc.tokens.count, 4)
        let cases: [(String?, Result<String, TokenError>)] = [
            ("sports", .success("Bearer new-sports-token")),
            ("news", .success("news-token-123")),
            ("weather", .failure(.noToken(bucket: "weather"))),
            (nil, .failure(.bucketRequired(available: ["news", "sports"]))),
        ]
        for (bucket, expected) in cases {
            let got = Result { () throws(TokenError) -> String in try doc.token(bucket: bucket).token }
            XCTAssertEqual(got, expected, bucket ?? "nil")
        }
        let expired = try TokenDocument.parse(Data(#"{"tokens":[{"bucket":"b","token":"t","expires":"2001-01-01T00:00:00Z"}]}"#.utf8))
        XCTAssertThrowsError(try expired.token(bucket: "b")) { XCTAssertEqual($0 as? TokenError, .expired(bucket: "b")) }
        let single = try TokenDocument.parse(Data(#"{"tokens":[{"bucket":"only","token":"t"}]}"#.utf8))
        XCTAssertEqual(try single.token(bucket: nil).token, "t")
    }

    func testInvalidDocumentsSayWhyWithoutTheToken() {
        let cases: [(String, String)] = [
            ("not json", "not JSON"),
            (#"{"tokens":[{"bucket":"b"}]}"#, "missing 'token'"),
            (#"{"tokenz":[]}"#, "missing 'tokens'"),
            (#"{"tokens":[{"bucket":"b","token":"s3cret-value","expires":"tomorrow"}]}"#, "ISO 8601"),
            (#"{"tokens":[{"bucket":1,"token":"s3cret-value"}]}"#, "wrong type"),
        ]
        for (json, fragment) in cases {
            XCTAssertThrowsError(try TokenDocument.parse(Data(json.utf8)), json) { error in
                let text = "\(error)"
                XCTAssertTrue(text.contains(fragment), "\(json) → \(text)")
                XCTAssertFalse(text.contains("s3cret-value"), text)
            }
        }
    }

    func testFileProviderCachesRefreshesOnceAndRegistersSecrets() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reel-token-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("tokens.json")
        try Data(#"{"tokens":[{"bucket":"sports","token":"first-token-AAAA"}]}"#.utf8).write(to: file)
        let provider = TokenProvider.file(file.path, bucket: "sports")
        let first = try await provider.token()
        XCTAssertEqual(first, "first-token-AAAA")
        XCTAssertEqual(Redactor.redactText("x first-token-AAAA y"), "x *** y")
        _ = try await provider.token()
        XCTAssertEqual(provider.loadCount, 1, "cached")
        try Data(#"{"tokens":[{"bucket":"sports","token":"second-token-BBBB"}]}"#.utf8).write(to: file)
        // Two requests rejected with the same token: one reload.
        let a = try await provider.refresh(rejected: first)
        let b = try await provider.refresh(rejected: first)
        XCTAssertEqual(a, "second-token-BBBB")
        XCTAssertEqual(b, "second-token-BBBB")
        XCTAssertEqual(provider.loadCount, 2)
        XCTAssertEqual(Redactor.redactURL("http://h/a.ts?Authorization=second-token-BBBB"), "http://h/a.ts?Authorization=***")
    }

    func testUnreadableSourcesAreClearErrors() async {
        let missing = TokenProvider.file("/nonexistent/reel/tokens.json", bucket: "b")
        do {
            _ = try await missing.token()
            XCTFail("no error")
        } catch {
            XCTAssertEqual("\(error)", "The tokens could not be read from /nonexistent/reel/tokens.json: no such file.")
        }
        struct Boom: Error, CustomStringConvertible { var description: String { "HTTP 500 from token-url" } }
        let endpoint = TokenProvider(bucket: "b", source: "http://127.0.0.1:1/tokens?key=sekrit") { throw Boom() }
        do {
            _ = try await endpoint.token()
            XCTFail("no error")
        } catch {
            XCTAssertEqual("\(error)", "The tokens could not be read from http://127.0.0.1:1/tokens?key=***: HTTP 500 from token-url.")
        }
    }
}
