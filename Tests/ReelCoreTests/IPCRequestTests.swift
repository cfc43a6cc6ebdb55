import ReelCore
import XCTest

final class IPCRequestTests: XCTestCase {
    private func command(_ line: String) -> IPCCommand? {
        if case .success(let r) = IPCRequest.parse(line) { return r.command }
        return nil
    }

    private func failure(_ line: String) -> IPCRequest.Failure? {
        if case .failure(let f) = IPCRequest.parse(line) { return f }
        return nil
    }

    func testCommandsTable() {
        let cases: [(String, IPCCommand)] = [
            (#"{"command":["load","/m/a.mp4"]}"#, .load("/m/a.mp4")),
            (#"{"command":["loadfile","/m/a.mp4","append"]}"#, .append("/m/a.mp4")),
            (#"{"command":["append","http://x/y.m3u8"]}"#, .append("http://x/y.m3u8")),
            // An item's own options (its own headers), as a playlist entry's.
            (#"{"command":["load","http://x/y.m3u8",{"header":["X-Own: own-secret-1"]}]}"#, .load("http://x/y.m3u8", options: ["header": ["X-Own: own-secret-1"]])),
            (#"{"command":["loadfile","http://x/y.m3u8","append",{"header":"X-Own: b"}]}"#, .append("http://x/y.m3u8", options: ["header": ["X-Own: b"]])),
            // Live options, a number allowed for the offset.
            (#"{"command":["load","http://x/live.m3u8",{"live-mode":"restart","program-start":"2026-11-24T20:00:00Z","start-offset":4}]}"#,
             .load("http://x/live.m3u8", options: ["live-mode": ["restart"], "program-start": ["2026-11-24T20:00:00Z"], "start-offset": ["4"]])),
            (#"{"command":["append","http://x/y.m3u8",{"finished":"yes"}]}"#, .append("http://x/y.m3u8", options: ["finished": ["yes"]])),
            (#"{"command":["play"]}"#, .play),
            (#"{"command":"pause"}"#, .pause),
            (#"{"command":["cycle-pause"]}"#, .toggle),
            (#"{"command":["stop"]}"#, .stop),
            (#"{"command":["seek",10]}"#, .seek(10, .relative, .accurate)),
            (#"{"command":["seek",2.5,"absolute"]}"#, .seek(2.5, .absolute, .accurate)),
            (#"{"command":["seek","-5","relative+keyframes"]}"#, .seek(-5, .relative, .keyframe)),
            (#"{"command":["seek",50,"absolute-percent"]}"#, .seek(50, .absolutePercent, .accurate)),
            (#"{"command":["skip",-10]}"#, .skip(-10)),
            (#"{"command":["rate",-1]}"#, .rate(-1)),
            (#"{"command":["volume",55]}"#, .volume(55)),
            (#"{"command":["mute"]}"#, .mute(nil)),
            (#"{"command":["mute",true]}"#, .mute(true)),
            (#"{"command":["mute","no"]}"#, .mute(false)),
            (#"{"command":["next"]}"#, .next),
            (#"{"command":["playlist-prev"]}"#, .previous),
            (#"{"command":["jump",3]}"#, .jump(3)),
            (#"{"command":["playlist-move",0,5]}"#, .move(from: 0, to: 5)),
            (#"{"command":["playlist-remove",2]}"#, .remove(2)),
            (#"{"command":["playlist-remove","current"]}"#, .remove(nil)),
            (#"{"command":["screenshot"]}"#, .screenshot(path: nil, source: .video)),
            (#"{"command":["screenshot","/tmp/a.png"]}"#, .screenshot(path: "/tmp/a.png", source: .video)),
            (#"{"command":["screenshot","/tmp/a.png","window"]}"#, .screenshot(path: "/tmp/a.png", source: .window)),
            (#"{"command":["screenshot","window"]}"#, .screenshot(path: nil, source: .window)),
            (#"{"command":["screenshot","subtitles"]}"#, .screenshot(path: nil, source: .video)),
            (#"{"command":["quit",3]}"#, .quit(3)),
            (#"{"command":["get_property","time-pos"]}"#, .getProperty("time-pos")),
            (#"{"command":["get_property_string","volume"]}"#, .getPropertyString("volume")),
            (#"{"command":["client_name"]}"#, .connection("client_name", [])),
            (#"{"command":["observe_property",1,"volume"]}"#, .connection("observe_property", [.int(1), .string("volume")])),
            // Which properties there are is the session's table's to say: the parser takes any name.
            (#"{"command":["get_property","colour"]}"#, .getProperty("colour")),
            (#"{"command":["set_property","pause",true]}"#, .setProperty("pause", .bool(true))),
            (#"{"command":["set_property","volume",40]}"#, .setProperty("volume", .int(40))),
        ]
        for (line, expected) in cases { XCTAssertEqual(command(line), expected, line) }
    }

    func testRequestIDsAreEchoedAsGiven() {
        guard case .success(let r) = IPCRequest.parse(#"{"request_id": 42, "command": ["play"]}"#) else { return XCTFail() }
        XCTAssertEqual(r.id, .int(42))
        guard case .success(let s) = IPCRequest.parse(#"{"request_id": "abc", "command": ["play"]}"#) else { return XCTFail() }
        XCTAssertEqual(s.id, .string("abc"))
        XCTAssertEqual(failure(#"{"request_id": 7, "command": ["fly"]}"#)?.id, .int(7), "an error reply still carries the id")
    }

    func testErrorCodesGoOnTheWireByTheNamesDocsSocketLists() {
        XCTAssertEqual(IPCError.Code.allCases.map(\.rawValue),
                       ["invalid-json", "invalid-request", "unknown-command", "invalid-argument", "unknown-property",
                        "read-only-property", "unavailable", "capture-failed", "io-error", "unsupported format for accessing property"])
        XCTAssertEqual(IPCError.Code(rawValue: "read-only-property"), .readOnlyProperty)
        XCTAssertNil(IPCError.Code(rawValue: "readOnlyProperty"))
        let socketDoc = try? String(contentsOfFile: #filePath.replacingOccurrences(of: "Tests/ReelCoreTests/IPCRequestTests.swift", with: "docs/SOCKET.md"), encoding: .utf8)
        for code in IPCError.Code.allCases {
            XCTAssertTrue(socketDoc?.contains("`\(code.rawValue)`") == true, "docs/SOCKET.md lists \(code.rawValue)")
        }
    }

    func testMalformedInputGetsTheRightErrorCode() {
        let cases: [(String, IPCError.Code)] = [
            ("not json", .unknownCommand),  // a line starting with a letter is mpv's text form
            ("{not json", .invalidJSON),
            ("{\"command\": [\"play\"", .invalidJSON),
            ("", .invalidJSON),
            ("[1,2]", .invalidRequest),
            ("42", .invalidRequest),
            (#"{"request_id":1}"#, .invalidRequest),
            (#"{"command":42}"#, .invalidRequest),
            (#"{"command":[]}"#, .invalidRequest),
            (#"{"command":[1]}"#, .invalidRequest),
            (#"{"command":["fly"]}"#, .unknownCommand),
            (#"{"command":["seek"]}"#, .invalidArgument),
            (#"{"command":["load","http://x/a.mp4",{"header":["NoColon"]}]}"#, .invalidArgument),
            (#"{"command":["load","http://x/a.mp4",{"header":[1]}]}"#, .invalidArgument),
            (#"{"command":["load","http://x/live.m3u8",{"live-mode":"catchup","program-start":"2026-11-24T20:00:00Z"}]}"#, .invalidArgument),
            (#"{"command":["append","http://x/live.m3u8",{"program-start":"tomorrow"}]}"#, .invalidArgument),
            (#"{"command":["append",{"header":["X: y"]}]}"#, .invalidArgument),
            (#"{"command":["seek","ten"]}"#, .invalidArgument),
            (#"{"command":["seek",1,"sideways"]}"#, .invalidArgument),
            (#"{"command":["seek",150,"absolute-percent"]}"#, .invalidArgument),
            (#"{"command":["rate",0]}"#, .invalidArgument),
            (#"{"command":["volume",-1]}"#, .invalidArgument),
            (#"{"command":["jump",1.5]}"#, .invalidArgument),
            (#"{"command":["playlist-move",0]}"#, .invalidArgument),
            (#"{"command":["playlist-move",-1,2]}"#, .invalidArgument),
            (#"{"command":["playlist-remove","last"]}"#, .invalidArgument),
            (#"{"command":["play","extra"]}"#, .invalidArgument),
            (#"{"command":["screenshot","relative.png"]}"#, .invalidArgument),
            (#"{"command":["screenshot","/tmp/a.jpg"]}"#, .invalidArgument),
            (#"{"command":["screenshot","/tmp/a.png","/tmp/b.png"]}"#, .invalidArgument),
            (#"{"command":["quit",300]}"#, .invalidArgument),
            (#"{"command":["load",""]}"#, .invalidArgument),
        ]
        for (line, code) in cases { XCTAssertEqual(failure(line)?.error.code, code, line) }
    }
}
