import Foundation
import ReelTestSupport
import XCTest

/// `reel inspect`: what is in a file, as text and as JSON.
final class InspectCommandTests: XCTestCase {
    func testMediaFileAsTextAndJSON() throws {
        let text = ProcessRunner.run(ProcessRunner.reelExecutable, ["inspect", TestMedia.path("clip2s.mp4")], timeout: 30)
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stdout.contains("640x360"), text.stdout)
        XCTAssertTrue(text.stdout.contains("H.264"), text.stdout)
        XCTAssertTrue(text.stdout.contains("MPEG-4 AAC, 2 ch, 44100 Hz"), text.stdout)
        XCTAssertTrue(text.stdout.contains("0:02"), text.stdout)

        let json = ProcessRunner.run(ProcessRunner.reelExecutable, ["inspect", "--json", TestMedia.path("color10s.mp4")], timeout: 30)
        XCTAssertEqual(json.status, 0, json.stderr)
        XCTAssertEqual(json.lines.count, 1, "one JSON object")
        let o = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(o["type"] as? String, "media")
        XCTAssertEqual(o["ok"] as? Bool, true)
        XCTAssertEqual(try XCTUnwrap(o["duration"] as? Double), 10, accuracy: 0.1)
        XCTAssertEqual(o["seekable"] as? Bool, true)
        let video = try XCTUnwrap((o["video"] as? [[String: Any]])?.first)
        XCTAssertEqual(video["width"] as? Int, 640)
        XCTAssertEqual(try XCTUnwrap(video["framerate"] as? Double), 30, accuracy: 0.01)
        XCTAssertEqual((o["audio"] as? [[String: Any]])?.first?["sampleRate"] as? Int, 44100)
    }

    /// Issue 32: a subtitle file is read by Reel's own parser (the overlay's), not probed as media:
    /// format, encoding and the cues, as real files write them; exit 1 when nothing is readable.
    func testSubtitleFilesShowWhatReelsParserReads() throws {
        let dir = TestMedia.temporaryDirectory("reel-inspect-subs")
        defer { try? FileManager.default.removeItem(at: dir) }
        let files: [(String, [UInt8], String, String, [Double], String?)] = [
            ("bom-crlf.srt", [0xEF, 0xBB, 0xBF] + Array("1\r\n00:00:01,000 --> 00:00:02, 500\r\n<i>Hi</i> there\r\n\r\n".utf8),
             "srt", "utf-8-bom", [1], "<i>Hi</i> there"),
            ("header.vtt", Array("WEBVTT\n00:00:01.000 --> 00:00:02.000\nFirst\n\n00:03.000 --> 00:04.000 align:start\nSecond\n".utf8),
             "webvtt", "utf-8", [1, 3], "First"),
            ("plain.ass", Array("[Script Info]\nScriptType: v4.00+\n\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\nDialogue: 0,0:00:01.50,0:00:03.00,Default,,0,0,0,,{\\i1}Bonjour\n".utf8),
             "ass", "utf-8", [1.5], "<i>Bonjour</i>"),
            ("latin1.srt", Array("1\n00:00:01,000 --> 00:00:02,000\n".utf8) + [0x43, 0x61, 0x66, 0xE9, 0x0A],
             "srt", "windows-1252", [1], "Café"),
        ]
        for (name, bytes, format, encoding, starts, firstMarkup) in files {
            let path = dir.appendingPathComponent(name)
            try Data(bytes).write(to: path)
            let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["inspect", "--json", path.path], timeout: 30)
            XCTAssertEqual(r.status, 0, "\(name): \(r.stdout) \(r.stderr)")
            let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], name)
            XCTAssertEqual(json["type"] as? String, "subtitles", name)
            XCTAssertEqual(json["format"] as? String, format, name)
            XCTAssertEqual(json["encoding"] as? String, encoding, name)
            let cues = try XCTUnwrap(json["cues"] as? [[String: Any]], name)
            XCTAssertEqual(cues.compactMap { $0["start"] as? Double }, starts, name)
            XCTAssertEqual(cues.first?["markup"] as? String, firstMarkup, name)
            if name == "header.vtt" {
                XCTAssertTrue(cues.first?["placement"] is NSNull, "no settings: the default place")
                let placed = try XCTUnwrap(cues.last?["placement"] as? [String: Any], "align:start")
                XCTAssertEqual(placed["horizontal"] as? String, "left")
                XCTAssertEqual(placed["vertical"] as? String, "bottom")
            }
        }
        // What the parser leaves out is listed with its line; the rest is read (exit 0).
        let broken = dir.appendingPathComponent("broken.srt")
        try "1\n00:00:01,000 --> 00:00:02,000\nGood\n\n2\n00:00:03,0x0 --> 00:00:04,000\nBad\n".write(to: broken, atomically: true, encoding: .utf8)
        let b = ProcessRunner.run(ProcessRunner.reelExecutable, ["inspect", "--json", broken.path], timeout: 30)
        XCTAssertEqual(b.status, 0, b.stdout)
        let bj = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(b.stdout.utf8)) as? [String: Any])
        let problems = try XCTUnwrap(bj["problems"] as? [[String: Any]])
        XCTAssertEqual(problems.map { $0["line"] as? Int }, [6])
        XCTAssertEqual(problems.first?["code"] as? String, "unreadable-timing")
        XCTAssertEqual(problems.first?["severity"] as? String, "warning")
        XCTAssertEqual((bj["cues"] as? [Any])?.count, 1)
        let empty = dir.appendingPathComponent("empty.vtt")
        try "WEBVTT\n\nNOTE nothing\n".write(to: empty, atomically: true, encoding: .utf8)
        let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["inspect", empty.path], timeout: 30)
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stdout.contains("has no subtitles Reel can read"), r.stdout)
    }

    /// Issue 32: the WebVTT spec table (`WebVTTSpecCases`, one case per step of the W3C parser
    /// algorithm) through `reel inspect --json`: the cues' identifiers and text, the problems.
    func testTheWebVTTSpecTableThroughInspect() throws {
        let dir = TestMedia.temporaryDirectory("reel-inspect-webvtt-spec")
        defer { try? FileManager.default.removeItem(at: dir) }
        for (n, spec) in WebVTTSpecCases.all.enumerated() {
            let path = dir.appendingPathComponent("case\(n).vtt")
            try Data(spec.file.utf8).write(to: path)
            let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["inspect", "--json", path.path], timeout: 30)
            XCTAssertEqual(r.status, spec.cues.isEmpty ? 1 : 0, spec.step)
            let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], spec.step)
            let cues = try XCTUnwrap(json["cues"] as? [[String: Any]], spec.step)
            XCTAssertEqual(cues.map { "\($0["id"] as? String ?? "?")|\($0["text"] as? String ?? "?")" }, spec.cues, spec.step)
            XCTAssertEqual((json["problems"] as? [[String: Any]])?.map { $0["code"] as? String ?? "?" }, spec.problems, spec.step)
        }
        // Settings as written, and where they put the cue.
        let placed = dir.appendingPathComponent("placed.vtt")
        try "WEBVTT\n\nleft\n00:01.000 --> 00:02.000 position:10% align:start size:50% line:20%\nA\n".write(to: placed, atomically: true, encoding: .utf8)
        let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["inspect", "--json", placed.path], timeout: 30)
        let cue = try XCTUnwrap(((try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])?["cues"] as? [[String: Any]])?.first)
        XCTAssertEqual(cue["id"] as? String, "left")
        XCTAssertEqual(cue["settings"] as? String, "position:10% align:start size:50% line:20%")
        let placement = try XCTUnwrap(cue["placement"] as? [String: Any])
        XCTAssertEqual(placement["horizontal"] as? String, "left")
        XCTAssertEqual(placement["vertical"] as? String, "top")
        XCTAssertEqual(try XCTUnwrap(placement["x"] as? Double), 0.1, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(placement["y"] as? Double), 0.2, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(placement["width"] as? Double), 0.5, accuracy: 1e-9)
    }

    /// Issue 31: an MPD from ffmpeg's DASH muxer: its Representations (two video, one audio) and
    /// their timeline segments, as text and JSON; a file that is no MPD exits 1.
    func testDASHManifestsAreDescribed() throws {
        let mpd = TestMedia.path("dash/ffmpeg/manifest.mpd")
        let text = ProcessRunner.run(ProcessRunner.reelExecutable, ["inspect", mpd], timeout: 30)
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stdout.contains("DASH static, 0:08"), text.stdout)
        XCTAssertTrue(text.stdout.contains("1280x720") && text.stdout.contains("4 segments (8.000 s)"), text.stdout)
        let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["inspect", "--json", mpd], timeout: 30)
        let o = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(o["type"] as? String, "dash")
        let sets = try XCTUnwrap((o["periods"] as? [[String: Any]])?.first?["adaptationSets"] as? [[String: Any]])
        XCTAssertEqual(sets.compactMap { $0["contentType"] as? String }, ["video", "audio"])
        let video = try XCTUnwrap(sets.first?["representations"] as? [[String: Any]])
        XCTAssertEqual(video.compactMap { $0["height"] as? Int }, [360, 720])
        XCTAssertEqual(video.compactMap { $0["segments"] as? Int }, [4, 4])
        let dir = TestMedia.temporaryDirectory("reel-inspect-mpd")
        defer { try? FileManager.default.removeItem(at: dir) }
        let bad = dir.appendingPathComponent("bad.mpd")
        try "<html>not an MPD</html>".write(to: bad, atomically: true, encoding: .utf8)
        XCTAssertEqual(ProcessRunner.run(ProcessRunner.reelExecutable, ["inspect", bad.path], timeout: 30).status, 1)
    }

    /// Issue 32: subtitle files as real ones are (`SubtitleFileCases`: SubRip, SubStation Alpha,
    /// WebVTT cue text) through `reel inspect --json`, as the parser tests read them.
    func testRealWorldSubtitleFilesThroughInspect() throws {
        let dir = TestMedia.temporaryDirectory("reel-inspect-cases")
        defer { try? FileManager.default.removeItem(at: dir) }
        for (n, c) in SubtitleFileCases.all.enumerated() {
            let path = dir.appendingPathComponent("\(n)-\(c.fileName)")
            try Data(c.bytes).write(to: path)
            let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["inspect", "--json", path.path], timeout: 30)
            XCTAssertEqual(r.status, c.cues.isEmpty ? 1 : 0, c.name)
            let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], c.name)
            let cues = try XCTUnwrap(json["cues"] as? [[String: Any]], c.name)
            XCTAssertEqual(cues.map { "\($0["id"] as? String ?? "?")|\($0["text"] as? String ?? "?")" }, c.cues, c.name)
            if let markups = c.markups { XCTAssertEqual(cues.compactMap { $0["markup"] as? String }, markups, c.name) }
            XCTAssertEqual((json["problems"] as? [[String: Any]])?.map { $0["code"] as? String ?? "?" }, c.problems, c.name)
        }
    }

    /// Issue 32: `--track` shows a media file's subtitle track: its own text streams as GStreamer
    /// decodes them (Matroska SRT, MP4 tx3g), then the files beside it as Reel's parser reads them.
    func testTracksOfAMediaFile() throws {
        func inspect(_ file: String, _ track: String) throws -> (Int32, [String: Any]) {
            let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["inspect", "--json", "--track", track, TestMedia.path(file)], timeout: 90)
            let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(file) \(track): \(r.stdout) \(r.stderr)")
            return (r.status, json)
        }
        func texts(_ json: [String: Any]) -> [String] { (json["cues"] as? [[String: Any]])?.compactMap { $0["text"] as? String } ?? [] }
        for file in ["tracks.mkv", "tracks-tx3g.mp4"] {
            let (s1, first) = try inspect(file, "1")
            XCTAssertEqual(s1, 0, file)
            XCTAssertEqual(texts(first), ["HELLO"], file)
            XCTAssertEqual(first["source"] as? String, "embedded", file)
            XCTAssertEqual(first["track"] as? String, "1", file)
            let cue = try XCTUnwrap((first["cues"] as? [[String: Any]])?.first)
            XCTAssertEqual(try XCTUnwrap(cue["start"] as? Double), 1, accuracy: 0.05, file)
            XCTAssertEqual(try XCTUnwrap(cue["end"] as? Double), 5, accuracy: 0.05, file)
            let (s2, second) = try inspect(file, "2")
            XCTAssertEqual(s2, 0, file)
            XCTAssertEqual(texts(second), ["BONJOUR"], file)
            let (s3, none) = try inspect(file, "3")
            XCTAssertEqual(s3, 1, file)
            XCTAssertEqual((none["error"] as? [String: Any])?["code"] as? String, "not-found", file)
        }
        // No text streams of its own: track 1 is the first file beside it; file:2 the third.
        let (sf, srt) = try inspect("subs/film.mp4", "1")
        XCTAssertEqual(sf, 0)
        XCTAssertEqual(srt["name"] as? String, "film.en.srt")
        XCTAssertEqual(srt["source"] as? String, "file")
        XCTAssertEqual(texts(srt), ["HI", "A second cue"])
        let (sa, ass) = try inspect("subs/film.mp4", "file:2")
        XCTAssertEqual(sa, 0)
        XCTAssertEqual(ass["format"] as? String, "ass")
        XCTAssertEqual(texts(ass), ["HALLO WELT"])
        let (sb, bad) = try inspect("subs/film.mp4", "first")
        XCTAssertEqual(sb, 1)
        XCTAssertNotNil(bad["error"])
    }

    func testBadInputsExitNonZeroWithTheTypedError() throws {
        let cases = [("notmedia.mp4", "unsupported-format"), ("empty.mp4", "empty-file")]
        for (name, code) in cases {
            let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["inspect", "--json", TestMedia.path(name)], timeout: 30)
            XCTAssertEqual(r.status, 1, name)
            let o = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], r.stdout)
            XCTAssertEqual(o["ok"] as? Bool, false)
            XCTAssertEqual((o["error"] as? [String: Any])?["code"] as? String, code)
        }
        let missing = ProcessRunner.run(ProcessRunner.reelExecutable, ["inspect", "/nonexistent/file.mp4"], timeout: 30)
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("not-found"), missing.stderr)
    }

    // MARK: Playlists

    private func inspect(_ input: String) throws -> (ProcessRunner.Result, [String: Any]) {
        let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["inspect", "--json", input], timeout: 30)
        XCTAssertFalse(r.timedOut)
        XCTAssertEqual(r.lines.count, 1, "one JSON object: \(r.stdout) \(r.stderr)")
        let o = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], r.stdout + r.stderr)
        return (r, o)
    }

    private func write(_ name: String, _ text: String, in dir: URL) throws -> String {
        let url = dir.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    func testHLSMasterListsItsVariantsResolved() throws {
        let (r, o) = try inspect(TestMedia.path("hls/vod/master.m3u8"))
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(o["type"] as? String, "hls-master")
        let variants = try XCTUnwrap(o["variants"] as? [[String: Any]])
        XCTAssertEqual(variants.map { $0["bandwidth"] as? Int }, [2_800_000, 520_000])
        XCTAssertEqual(variants.map { $0["resolution"] as? String }, ["640x360", "320x180"])
        XCTAssertEqual(variants[0]["codecs"] as? [String], ["avc1.42c01e", "mp4a.40.2"])
        XCTAssertEqual(variants[1]["uri"] as? String, TestMedia.url("hls/vod/lo/index.m3u8").absoluteString, "resolved against the master")
        XCTAssertEqual((o["renditions"] as? [Any])?.count, 0)

        let text = ProcessRunner.run(ProcessRunner.reelExecutable, ["inspect", TestMedia.path("hls/vod/master.m3u8")], timeout: 30)
        XCTAssertEqual(text.status, 0)
        XCTAssertTrue(text.stdout.contains("HLS master playlist, 2 variants"), text.stdout)
        XCTAssertTrue(text.stdout.contains("2800000 bit/s, 640x360, avc1.42c01e,mp4a.40.2"), text.stdout)
    }

    func testHLSMediaPlaylistsSayVODLiveEventAndEncryption() throws {
        let (vodRun, vod) = try inspect(TestMedia.path("hls/vod/hi/index.m3u8"))
        XCTAssertEqual(vodRun.status, 0)
        XCTAssertEqual(vod["type"] as? String, "hls-media")
        XCTAssertEqual(vod["kind"] as? String, "VOD")
        XCTAssertEqual(vod["live"] as? Bool, false)
        XCTAssertEqual(vod["segments"] as? Int, 3)
        XCTAssertEqual(vod["targetDuration"] as? Double, 2)
        XCTAssertEqual(try XCTUnwrap(vod["duration"] as? Double), 5.967, accuracy: 0.001)
        XCTAssertEqual(vod["encrypted"] as? Bool, false)

        let (_, aes) = try inspect(TestMedia.path("hls/aes/index.m3u8"))
        XCTAssertEqual(aes["encrypted"] as? Bool, true)
        XCTAssertEqual(aes["encryption"] as? [String], ["AES-128"])

        let dir = TestMedia.temporaryDirectory("reel-inspect")
        defer { try? FileManager.default.removeItem(at: dir) }
        let window = "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-MEDIA-SEQUENCE:120\n#EXTINF:4,\na.ts\n#EXTINF:4,\nb.ts\n"
        let (_, live) = try inspect(try write("live.m3u8", window, in: dir))
        XCTAssertEqual(live["kind"] as? String, "live")
        XCTAssertEqual(live["live"] as? Bool, true)
        XCTAssertEqual(live["mediaSequence"] as? Int, 120)
        XCTAssertEqual(live["segments"] as? Int, 2)
        let (_, event) = try inspect(try write("event.m3u8", window.replacingOccurrences(of: "#EXTM3U\n", with: "#EXTM3U\n#EXT-X-PLAYLIST-TYPE:EVENT\n"), in: dir))
        XCTAssertEqual(event["kind"] as? String, "EVENT")
        XCTAssertEqual(event["playlistType"] as? String, "EVENT")

        let text = ProcessRunner.run(ProcessRunner.reelExecutable, ["inspect", TestMedia.path("hls/aes/index.m3u8")], timeout: 30)
        XCTAssertTrue(text.stdout.contains("HLS media playlist, VOD"), text.stdout)
        XCTAssertTrue(text.stdout.contains("segments:        3 from sequence 0"), text.stdout)
        XCTAssertTrue(text.stdout.contains("encryption:      AES-128"), text.stdout)

        let (badRun, bad) = try inspect(try write("bad.m3u8", "#EXTM3U\n#EXTINF:2,\nsegment.ts\n#EXT-X-ENDLIST\n", in: dir))
        XCTAssertEqual(badRun.status, 1, "a media playlist without a target duration has an error")
        XCTAssertEqual(bad["segments"] as? Int, 1, "it is read all the same, as players read it")
        XCTAssertEqual(bad["targetDuration"] as? Double, 2, "taken from its longest segment")
        let problems = try XCTUnwrap(bad["problems"] as? [[String: Any]])
        XCTAssertEqual(problems.map { $0["code"] as? String }, ["missing-target-duration"])
        XCTAssertEqual(problems.first?["severity"] as? String, "error")

        // A comment before #EXTM3U, a variable, a segment longer than the target: read, each problem on its line.
        let messy = "# encoder 1.0\n#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-DEFINE:NAME=\"s\",VALUE=\"segment\"\n#EXTINF:3,\n{$s}.ts\n"
        let (messyRun, messyJSON) = try inspect(try write("messy.m3u8", messy, in: dir))
        XCTAssertEqual(messyRun.status, 1)
        XCTAssertEqual(messyJSON["segments"] as? Int, 1)
        let messyProblems = try XCTUnwrap(messyJSON["problems"] as? [[String: Any]])
        XCTAssertEqual(messyProblems.map { "\($0["line"] as? Int ?? 0) \($0["code"] as? String ?? "")" }, ["2 header-not-first", "5 segment-too-long"])
        let messyText = ProcessRunner.run(ProcessRunner.reelExecutable, ["inspect", dir.appendingPathComponent("messy.m3u8").path], timeout: 30)
        XCTAssertTrue(messyText.stdout.contains("line 5: error: The segment lasts 3.0 s"), messyText.stdout)
    }

    func testM3UPLSAndXSPFEntriesAsResolved() throws {
        let dir = TestMedia.temporaryDirectory("reel-inspect-lists")
        defer { try? FileManager.default.removeItem(at: dir) }
        let m3u = try write("list.m3u", """
            #EXTM3U
            #EXTINF:10,Colours
            media/color10s.mp4
            #EXTINF:abc,Broken
            #EXTREEL:header=Authorization: Bearer s3cr3t-token
            https://cdn.example.com/a%20b.mp4?sig=s3cr3t-sig
            """, in: dir)
        let (r, o) = try inspect(m3u)
        XCTAssertEqual(r.status, 1, "a malformed line makes the playlist not clean")
        XCTAssertEqual(o["type"] as? String, "m3u")
        let entries = try XCTUnwrap(o["entries"] as? [[String: Any]])
        XCTAssertEqual(entries.count, 2)
        XCTAssertEqual(entries[0]["uri"] as? String, dir.appendingPathComponent("media/color10s.mp4").absoluteString, "relative to the playlist")
        XCTAssertEqual(entries[0]["title"] as? String, "Colours")
        XCTAssertEqual(entries[0]["duration"] as? Double, 10)
        XCTAssertEqual(entries[1]["options"] as? [String], ["header"], "option names, never values")
        let problems = try XCTUnwrap(o["problems"] as? [[String: Any]])
        XCTAssertEqual(problems.first?["line"] as? Int, 4)
        XCTAssertFalse(r.stdout.contains("s3cr3t"), "no secret reaches the output: \(r.stdout)")

        let pls = try write("list.pls", "[playlist]\nFile1=one.mp4\nTitle1=One\nFile2=http://host.example/two.mp4\nNumberOfEntries=2\nVersion=2\n", in: dir)
        let (plsRun, plsReport) = try inspect(pls)
        XCTAssertEqual(plsRun.status, 0, plsRun.stdout)
        XCTAssertEqual(plsReport["type"] as? String, "pls")
        XCTAssertEqual((plsReport["entries"] as? [[String: Any]])?.map { $0["uri"] as? String },
                       [dir.appendingPathComponent("one.mp4").absoluteString, "http://host.example/two.mp4"])

        let xspf = try write("list.xspf", """
            <?xml version="1.0" encoding="UTF-8"?>
            <playlist version="1" xmlns="http://xspf.org/ns/0/"><title>Review</title><trackList>
            <track><location>clips/x.mp4</location><title>X</title><duration>2500</duration></track>
            </trackList></playlist>
            """, in: dir)
        let (xspfRun, xspfReport) = try inspect(xspf)
        XCTAssertEqual(xspfRun.status, 0, xspfRun.stdout)
        XCTAssertEqual(xspfReport["title"] as? String, "Review")
        let track = try XCTUnwrap((xspfReport["entries"] as? [[String: Any]])?.first)
        XCTAssertEqual(track["uri"] as? String, dir.appendingPathComponent("clips/x.mp4").absoluteString)
        XCTAssertEqual(track["duration"] as? Double, 2.5)

        let text = ProcessRunner.run(ProcessRunner.reelExecutable, ["inspect", xspf], timeout: 30)
        XCTAssertTrue(text.stdout.contains("XSPF playlist “Review”, 1 entry"), text.stdout)
        XCTAssertTrue(text.stdout.contains("#0: X  [0:02]"), text.stdout)

        let (missingRun, missing) = try inspect(dir.appendingPathComponent("nowhere.m3u").path)
        XCTAssertEqual(missingRun.status, 1)
        XCTAssertEqual((missing["error"] as? [String: Any])?["code"] as? String, "invalid-playlist")
    }

    func testANetworkMasterIsFetchedAndItsVariantsResolvedAgainstItsURL() throws {
        let server = try HTTPFixtureServer()
        defer { server.shutdown() }
        server.serve("/show/master.m3u8", .file(TestMedia.url("hls/vod/master.m3u8"), contentType: "application/vnd.apple.mpegurl"))
        let (r, o) = try inspect(server.url("/show/master.m3u8").absoluteString)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(o["type"] as? String, "hls-master")
        XCTAssertEqual((o["variants"] as? [[String: Any]])?.map { $0["uri"] as? String },
                       [server.url("/show/hi/index.m3u8").absoluteString, server.url("/show/lo/index.m3u8").absoluteString])

        server.serve("/gone.m3u8", .status(404))
        let (goneRun, gone) = try inspect(server.url("/gone.m3u8").absoluteString)
        XCTAssertEqual(goneRun.status, 1)
        XCTAssertTrue(((gone["error"] as? [String: Any])?["message"] as? String ?? "").contains("404"), "\(gone)")
    }
}
