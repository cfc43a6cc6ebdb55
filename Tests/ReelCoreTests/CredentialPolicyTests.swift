import Foundation
import ReelCore
import XCTest

/// The one credential rule (issue 12), by table: who gets the session's headers and token, and
/// what a playlist entry may ask for.
final class CredentialPolicyTests: XCTestCase {
    let grant = CredentialGrant(hasCredentials: true, inputs: ["https://live.example.com/event/master.m3u8", "/home/u/list.m3u"],
                                hosts: ["cdn.example.net", "*.edge.example.org"])

    func testSessionCredentialsGoOnlyToBoundOriginsOfCommandLineArrivals() {
        let cases: [(String, ItemArrival, Bool)] = [
            ("https://live.example.com/event/master.m3u8", .commandLine, true),
            ("https://other.example.com/x.m3u8", .commandLine, true),             // an input is bound by being given
            ("https://live.example.com/other/master.m3u8", .playlist, true),      // same origin as an input
            ("https://cdn.example.net:8443/x.m3u8", .playlist, true),               // --header-host, any port
            ("https://a.edge.example.org/x.m3u8", .playlist, true),
            ("https://evil.example.com/x.m3u8", .playlist, false),                 // a playlist entry elsewhere
            ("https://live.example.com:8443/x.m3u8", .playlist, false),            // another port: another origin
            ("http://live.example.com/x.m3u8", .playlist, false),                  // another scheme
            ("https://live.example.com/event/master.m3u8", .control, false),       // socket, MPRIS, window
            ("https://cdn.example.net/x.m3u8", .control, false),
        ]
        for (uri, arrival, expected) in cases {
            let d = CredentialPolicy.decide(uri: uri, arrival: arrival, entry: ProtectedEntryOptions(), grant: grant)
            XCTAssertEqual(d.sessionCredentials, expected, "\(uri) \(arrival)")
            XCTAssertEqual(d.granted.allowedHosts, expected ? grant.hosts : [], uri)
        }
        let none = CredentialGrant(hasCredentials: false, inputs: ["https://live.example.com/a.m3u8"], hosts: [])
        XCTAssertFalse(CredentialPolicy.decide(uri: "https://live.example.com/a.m3u8", arrival: .commandLine, entry: ProtectedEntryOptions(), grant: none).sessionCredentials)
    }

    func testAnEntryCannotChooseABucketOrWidenHostsBeyondTheGrant() throws {
        let entry = try ProtectedEntryOptions(options: ["bucket": ["sports"], "header-host": ["attacker.example.com", "cdn.example.net"],
                                                        "header": ["X-Entry: e1"], "token-placement": ["query"], "finished": ["yes"]])
        let elsewhere = CredentialPolicy.decide(uri: "https://evil.example.com/x.m3u8", arrival: .playlist, entry: entry, grant: grant)
        XCTAssertFalse(elsewhere.sessionCredentials)
        XCTAssertNil(elsewhere.granted.bucket, "no bucket for an origin the grant does not cover")
        XCTAssertEqual(elsewhere.granted.allowedHosts, [], "its own header goes to its own origin only")
        XCTAssertEqual(elsewhere.granted.headers.map(\.name), ["X-Entry"])
        XCTAssertEqual(elsewhere.refused, ["bucket", "header-host"])
        XCTAssertEqual(elsewhere.granted.placement, .query)
        XCTAssertTrue(elsewhere.granted.finished)

        let bound = CredentialPolicy.decide(uri: "https://live.example.com/x.m3u8", arrival: .playlist, entry: entry, grant: grant)
        XCTAssertTrue(bound.sessionCredentials)
        XCTAssertEqual(bound.granted.bucket, "sports", "a bound origin may pick among the session's buckets")
        XCTAssertEqual(bound.granted.allowedHosts, grant.hosts, "attacker.example.com is not added")
        XCTAssertEqual(bound.refused, ["header-host"])

        let fromSocket = CredentialPolicy.decide(uri: "https://live.example.com/x.m3u8", arrival: .control, entry: entry, grant: grant)
        XCTAssertFalse(fromSocket.sessionCredentials)
        XCTAssertNil(fromSocket.granted.bucket)
    }

    func testLocalItemsSendNothing() throws {
        let entry = try ProtectedEntryOptions(options: ["header": ["X-A: b"], "bucket": ["b"]])
        let d = CredentialPolicy.decide(uri: "file:///home/u/a.mp4", arrival: .commandLine, entry: entry, grant: grant)
        XCTAssertFalse(d.sessionCredentials)
        XCTAssertEqual(d.granted.headers, [])
        XCTAssertFalse(d.needsGateway)
        XCTAssertEqual(d.refused, ["header", "bucket"])
    }

    func testOriginsCompareSchemeHostAndPort() {
        XCTAssertEqual(Origin("https://A.example.com/x"), Origin("https://a.example.com:443/y"))
        XCTAssertNotEqual(Origin("https://a.example.com/x"), Origin("http://a.example.com/x"))
        XCTAssertNotEqual(Origin("http://127.0.0.1:8000/"), Origin("http://127.0.0.1:9000/"))
        XCTAssertNil(Origin("file:///etc/passwd"))
        XCTAssertNil(Origin("ftp://h/x"))
    }
}
