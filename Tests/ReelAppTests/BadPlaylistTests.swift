import Foundation
import ReelTestSupport
import XCTest

/// Bad playlists through the `reel` binary (issue 7): each bad playlist is followed by a good
/// clip. The playlist gives one specific `invalid-playlist` error event naming it (and the line,
/// where there is one), the good clip still plays to its end, and reel exits with status 1:
/// no crash, no hang.
final class BadPlaylistTests: XCTestCase {
    private struct Run {
        let result: ProcessRunner.Result
        let events: [[String: Any]]
        func named(_ name: String) -> [[String: Any]] { events.filter { $0["event"] as? String == name } }
        /// The error events' messages, in order.
        var errorMessages: [String] { named("error").compactMap { ($0["error"] as? [String: Any])?["message"] as? String } }
        var errorCodes: [String] { named("error").compactMap { ($0["error"] as? [String: Any])?["code"] as? String } }
    }

    private var dir: URL!
    private var good: String { TestMedia.path("clip2s.mp4") }

    override func setUp() {
        super.setUp()
        dir = TestMedia.temporaryDirectory("reel-badplaylist")
    }

    override func tearDown() {
        if let dir { try? FileManager.default.removeItem(at: dir) }
        super.tearDown()
    }

    private func write(_ name: String, _ data: Data) throws -> String {
        let url = dir.appendingPathComponent(name)
        try data.write(to: url)
        return url.path
    }

    /// Runs reel on the playlist then the good clip, and checks what every bad playlist must
    /// give: errors only from the playlist (before any item), the good clip played to its end,
    /// status 1, within the bound. `items` is how many queue items the playlist itself adds.
    private func run(_ playlist: String, items: Int = 0, file: StaticString = #filePath, line: UInt = #line) throws -> Run {
        let result = ProcessRunner.run(ProcessRunner.reelExecutable,
            ["--headless", "--events", "--audio-sink", "fakesink", "--video-sink", "fakesink sync=false", playlist, good],
            timeout: 60)
        XCTAssertFalse(result.timedOut, "reel must not hang on a bad playlist. stderr: \(result.stderr)", file: file, line: line)
        XCTAssertEqual(result.status, 1, "exit status 1 (a playlist error), not a crash. stderr: \(result.stderr)", file: file, line: line)
        XCTAssertFalse(result.stderr.contains("Fatal error"), result.stderr, file: file, line: line)
        XCTAssertEqual(result.malformedJSONLines, [], "every event line is JSON", file: file, line: line)
        let events = result.jsonObjects
        let run = Run(result: result, events: events)
        XCTAssertFalse(run.named("error").isEmpty, "an error event for the playlist", file: file, line: line)
        for error in run.named("error") {
            XCTAssertTrue(error["item"] is NSNull, "playlist errors belong to no queue item: \(error)", file: file, line: line)
        }
        XCTAssertEqual(Set(run.errorCodes), ["invalid-playlist"], file: file, line: line)
        // Playlist errors come first, before the queue starts.
        let firstItem = events.firstIndex { $0["event"] as? String == "item" } ?? events.count
        let lastError = events.lastIndex { $0["event"] as? String == "error" } ?? -1
        XCTAssertLessThan(lastError, firstItem, "playlist errors are reported before playback", file: file, line: line)
        let itemEvents = run.named("item")
        XCTAssertEqual(itemEvents.map { $0["item"] as? Int }, Array(0...items).map { Optional($0) }, file: file, line: line)
        XCTAssertEqual((itemEvents.last?["uri"] as? String).map { ($0 as NSString).lastPathComponent }, "clip2s.mp4", file: file, line: line)
        XCTAssertEqual(run.named("end").map { $0["item"] as? Int }, Array(0...items).map { Optional($0) },
                       "every good item, the clip after the playlist last, plays to its end", file: file, line: line)
        let finished = run.named("finished").first
        XCTAssertEqual(finished?["played"] as? Int, items + 1, file: file, line: line)
        XCTAssertEqual(finished?["failed"] as? Int, 0, file: file, line: line)
        return run
    }

    func testBinaryFileNamedM3U() throws {
        // PNG-like bytes after a header line: a NUL on line 2.
        var bytes = Array("#EXTM3U\n".utf8)
        bytes += [0x89, 0x50, 0x4E, 0x47, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52]
        bytes += (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 97 &+ 13) }
        let list = try write("binary.m3u", Data(bytes))
        let run = try run(list)
        XCTAssertEqual(run.errorMessages, ["binary.m3u: line 2: binary data (a NUL byte): this is not a text playlist"])
    }

    func testBinaryFileWithoutNULBytes() throws {
        // Control characters throughout but no NUL: refused as binary, not parsed line by line.
        var bytes: [UInt8] = []
        for i in 0..<8192 {
            let control = UInt8(1 + i % 7)
            bytes.append(i % 3 == 0 ? control : UInt8(65 + i % 26))
        }
        let list = try write("noise.m3u", Data(bytes))
        let run = try run(list)
        XCTAssertEqual(run.errorMessages, ["noise.m3u: mostly binary data: this is not a text playlist"])
    }

    func testPlaylistOverTheSizeCap() throws {
        // 17 MiB of valid entries: refused whole, without being read.
        let entry = Data("\(good)\n".utf8)
        var data = Data("#EXTM3U\n".utf8)
        data.reserveCapacity((17 << 20) + entry.count)
        while data.count <= 17 << 20 { data.append(entry) }
        let list = try write("huge.m3u", data)
        let run = try run(list)
        XCTAssertEqual(run.errorMessages, ["huge.m3u: the file is larger than 16 MiB; not read"])
    }

    func testEndlessLine() throws {
        // One 4 MiB line with no line end after an #EXTINF: skipped, with its line number.
        var data = Data("#EXTM3U\n#EXTINF:2,Never ends\n".utf8)
        data.append(Data(repeating: UInt8(ascii: "a"), count: 4 << 20))
        let list = try write("endless.m3u", data)
        let run = try run(list)
        XCTAssertEqual(run.errorMessages, ["endless.m3u: line 3: longer than 64 KiB; skipped"])
    }

    func testEndlessLineBetweenGoodEntries() throws {
        var data = Data("#EXTM3U\n\(good)\n".utf8)
        data.append(Data(repeating: UInt8(ascii: "/"), count: 1 << 20))
        data.append(Data("\n\(good)\n".utf8))
        let list = try write("long.m3u8", data)
        let run = try run(list, items: 2)
        XCTAssertEqual(run.errorMessages, ["long.m3u8: line 3: longer than 64 KiB; skipped"])
    }

    func testDeeplyNestedXSPF() throws {
        let depth = 100_000
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<playlist version=\"1\" xmlns=\"http://xspf.org/ns/0/\">\n<trackList>\n"
        text += String(repeating: "<track>", count: depth)
        text += "\n" + String(repeating: "</track>", count: depth)
        text += "\n</trackList>\n</playlist>\n"
        let list = try write("nested.xspf", Data(text.utf8))
        let run = try run(list)
        XCTAssertEqual(run.errorMessages, ["nested.xspf: line 4: XML error: elements nested more than 64 deep"])
    }

    func testDeeplyNestedXSPFAfterAGoodTrack() throws {
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<playlist version=\"1\" xmlns=\"http://xspf.org/ns/0/\">\n<trackList>\n"
        text += "<track><location>\(URL(fileURLWithPath: good).absoluteString)</location></track>\n"
        text += String(repeating: "<extension>", count: 50_000) + "\n</trackList>\n</playlist>\n"
        let list = try write("nested-after.xspf", Data(text.utf8))
        let run = try run(list, items: 1)
        XCTAssertEqual(run.errorMessages,
                       ["nested-after.xspf: line 5: XML error: elements nested more than 64 deep; the 1 track(s) before it were kept"])
    }

    func testValidAndMalformedLinesMixed() throws {
        let text = """
        #EXTM3U
        #EXTINF:2,Good one
        \(good)
        #EXTINF:abc,Bad duration
        \(good)
        bad\u{01}line
        #EXTREEL:novalue
        http://[::1
        #EXTINF:2,Nothing after me
        """
        let list = try write("mixed.m3u8", Data(text.utf8))
        let run = try run(list, items: 2)
        XCTAssertEqual(run.errorMessages, [
            "mixed.m3u8: line 4: #EXTINF duration “abc” is not a number",
            "mixed.m3u8: line 6: binary data in the line; skipped",
            "mixed.m3u8: line 7: #EXTREEL needs name=value; ignored",
            "mixed.m3u8: line 8: “http://[::1” is not a valid URI",
            "mixed.m3u8: line 9: #EXTINF with no entry after it",
        ])
        XCTAssertEqual(run.named("item").map { $0["title"] as? String }, ["Good one", "Bad duration", "clip2s.mp4"])
    }
}
