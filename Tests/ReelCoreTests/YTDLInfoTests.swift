import Foundation
@testable import ReelCore
import XCTest

/// Issue 61: what `yt-dlp -J` prints, as queue items (`YTDLInfo`), and mpv's `--ytdl-raw-options`
/// (`YTDLSettings`). The documents are yt-dlp 2026.10.26's own shapes: the first is its output for
/// a page with an HTML5 `<video>` (trimmed to the fields Reel reads).
final class YTDLInfoTests: XCTestCase {
    private func entries(_ json: String) -> Result<[YTDLInfo.Entry], YTDLInfo.Failure> { YTDLInfo.entries(Data(json.utf8)) }

    private let html5 = """
        {"id": "page-1", "title": "A test programme (1)", "_type": "video", "extractor": "html5", "format_id": "hls-2800",
         "formats": [{"format_id": "hls-520", "url": "http://127.0.0.1:8931/vod/lo/index.m3u8", "protocol": "m3u8_native", "vcodec": "avc1.42c00d", "acodec": "mp4a.40.2"},
                     {"format_id": "hls-2800", "url": "http://127.0.0.1:8931/vod/hi/index.m3u8", "protocol": "m3u8_native", "vcodec": "avc1.42c01e", "acodec": "mp4a.40.2"}],
         "url": "http://127.0.0.1:8931/vod/hi/index.m3u8", "protocol": "m3u8_native", "vcodec": "avc1.42c01e", "acodec": "mp4a.40.2",
         "http_headers": {"User-Agent": "Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/146.0.0.0", "Accept": "text/html,*/*;q=0.8",
                          "Accept-Language": "en-us,en;q=0.5", "Sec-Fetch-Mode": "navigate", "Referer": "http://127.0.0.1:8931/page.html"},
         "webpage_url": "http://127.0.0.1:8931/page.html", "duration": 5.967,
         "chapters": [{"start_time": 3, "end_time": 6, "title": "Two"}, {"start_time": 0, "end_time": 3, "title": "One"}],
         "requested_subtitles": {"en": {"ext": "vtt", "url": "http://127.0.0.1:8931/en.vtt"}, "de": {"ext": "json3", "url": "http://127.0.0.1:8931/de.json3"}}}
        """

    func testOneVideoPlaysItsChosenFormatWithItsHeadersChaptersAndSubtitles() throws {
        let found = try entries(html5).get()
        XCTAssertEqual(found.count, 1)
        let e = try XCTUnwrap(found.first)
        XCTAssertEqual(e.url, "http://127.0.0.1:8931/vod/hi/index.m3u8")
        XCTAssertEqual(e.title, "A test programme (1)")
        XCTAssertEqual(e.duration, 5.967)
        XCTAssertEqual(e.headers, ["Accept: text/html,*/*;q=0.8", "Accept-Language: en-us,en;q=0.5", "Referer: http://127.0.0.1:8931/page.html",
                                   "Sec-Fetch-Mode: navigate", "User-Agent: Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/146.0.0.0"])
        XCTAssertEqual(e.chapters.map(\.0), [0, 3], "in order")
        XCTAssertEqual(e.chapters.map(\.1), ["One", "Two"])
        XCTAssertEqual(e.subtitles.map(\.0), ["en"], "a format Reel reads only (json3 is not one)")
        let options = e.options(page: "http://127.0.0.1:8931/page.html")
        XCTAssertEqual(options["page"], ["http://127.0.0.1:8931/page.html"], "never looked up again")
        XCTAssertEqual(options["header"]?.count, 5)
        XCTAssertNil(options["header-host"], "an entry's headers go to its own origin only")
        XCTAssertEqual(options["chapter"], ["0.000 One", "3.000 Two"])
        XCTAssertEqual(options["sub-url"], ["en http://127.0.0.1:8931/en.vtt"])
    }

    func testFormatsPlaylistsAndWhatGivesNothing() {
        let table: [(String, String, Result<[String], YTDLInfo.Failure>)] = [
            ("not JSON", "<html>", .failure(.notJSON)),
            ("a JSON array", "[1]", .failure(.notJSON)),
            ("no format", #"{"_type": "video", "title": "x"}"#, .failure(.nothingPlayable("page without a format"))),
            ("a format not over HTTP", #"{"_type": "video", "url": "rtmp://host/live"}"#, .failure(.nothingPlayable("page without a format"))),
            ("separate video and audio: the video, its audio joined", #"{"requested_formats": [{"url": "https://a/v.mp4", "vcodec": "avc1", "acodec": "none"}, {"url": "https://a/a.m4a", "vcodec": "none", "acodec": "mp4a"}]}"#,
             .success(["https://a/v.mp4"])),
            ("separate parts at two origins", #"{"requested_formats": [{"url": "https://a/v.mp4", "vcodec": "avc1", "acodec": "none"}, {"url": "https://b/a.m4a", "vcodec": "none", "acodec": "mp4a"}]}"#,
             .failure(.separateAudioAndVideo)),
            ("separate HLS parts", #"{"requested_formats": [{"url": "https://a/v.m3u8", "protocol": "m3u8_native", "vcodec": "avc1", "acodec": "none"}, {"url": "https://a/a.m3u8", "protocol": "m3u8_native", "vcodec": "none", "acodec": "mp4a"}]}"#,
             .failure(.separateAudioAndVideo)),
            ("a pair of which one has both", #"{"requested_formats": [{"url": "https://a/v.mp4", "vcodec": "avc1", "acodec": "mp4a"}, {"url": "https://a/a.m4a", "vcodec": "none", "acodec": "mp4a"}]}"#,
             .success(["https://a/v.mp4"])),
            ("one requested format", #"{"requested_formats": [{"url": "https://a/both.webm"}]}"#, .success(["https://a/both.webm"])),
            ("a playlist of videos, in order", #"{"_type": "playlist", "entries": [{"url": "https://a/1.mp4"}, {"_type": "video"}, {"url": "https://a/3.mp4"}]}"#,
             .success(["https://a/1.mp4", "https://a/3.mp4"])),
            ("a flat playlist (pages)", #"{"_type": "playlist", "entries": [{"_type": "url", "url": "https://site/watch?v=1", "title": "One"}, {"_type": "url", "url": "ftp://x"}]}"#,
             .success(["https://site/watch?v=1"])),
            ("an empty playlist", #"{"_type": "playlist", "entries": []}"#, .failure(.nothingPlayable("playlist with no video"))),
            ("something else", #"{"_type": "compat_list"}"#, .failure(.nothingPlayable("compat_list"))),
        ]
        for (name, json, expected) in table {
            let got = entries(json).map { $0.map(\.url) }
            XCTAssertEqual(got, expected, name)
        }
        let joined = try? entries(#"{"requested_formats": [{"url": "https://a/v.mp4", "vcodec": "avc1", "acodec": "none"}, {"url": "https://a/a.m4a", "vcodec": "none", "acodec": "mp4a"}]}"#).get()
        XCTAssertEqual(joined?.first?.options(page: "https://a/watch")["audio-url"], ["https://a/a.m4a"])
        // A flat entry is a page: looked up again when it plays (no `page` option).
        let flat = try? entries(#"{"_type": "playlist", "entries": [{"_type": "url", "url": "https://site/watch?v=1"}]}"#).get()
        XCTAssertEqual(flat?.first?.isPage, true)
        XCTAssertNil(flat?.first?.options(page: "https://site/list")["page"])
        // A channel's whole history is not a queue.
        let many = "{\"_type\": \"playlist\", \"entries\": [" + (0..<6000).map { "{\"url\": \"https://a/\($0).mp4\"}" }.joined(separator: ",") + "]}"
        XCTAssertEqual((try? entries(many).get())?.count, YTDLInfo.maximumEntries)
    }

    func testHeadersAndCookiesAsTheGatewaySendsThem() {
        let format: [String: Any] = [
            "http_headers": ["X-Token": "a\r\nInjected: yes", "Bad Name": "x", "Cookie": "sid=1", "User-Agent": "UA"],
            "cookies": "session=abc; Domain=.example.com; Path=/; Secure; Expires=1767225600; theme=dark; HttpOnly",
        ]
        XCTAssertEqual(YTDLInfo.headers(of: format), ["User-Agent: UA", "X-Token: a Injected: yes", "Cookie: sid=1; session=abc; theme=dark"],
                       "one line each (no header smuggled in by CR LF), names that are tokens, cookies as one Cookie header without their attributes")
    }

    func testRawOptionsAsMpvWritesThem() {
        let table: [(String, [String]?)] = [
            ("", []),
            ("cookies=/home/me/c.txt", ["--cookies", "/home/me/c.txt"]),
            ("no-check-certificates=,proxy=http://127.0.0.1:3128", ["--no-check-certificates", "--proxy", "http://127.0.0.1:3128"]),
            ("write-sub,sub-langs=en", ["--write-sub", "--sub-langs", "en"]),
            ("--exec=rm", nil),
            ("exec;rm=1", nil),
            ("a b=1", nil),
        ]
        for (text, expected) in table { XCTAssertEqual(YTDLSettings.rawArguments(text), expected, text) }
        var s = YTDLSettings()
        s.rawArguments = ["--proxy", "http://p"]
        XCTAssertEqual(s.arguments(for: "https://site/watch?v=1"),
                       ["-J", "--no-warnings", "--flat-playlist", "--no-progress", "-f", "bv*+ba/b", "--proxy", "http://p", "--", "https://site/watch?v=1"],
                       "the page after `--`: a URL that starts with - is not an option")
    }
}
