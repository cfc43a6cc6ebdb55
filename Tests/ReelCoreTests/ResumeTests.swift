import Foundation
import XCTest
@testable import ReelCore

/// Resume positions: the key (nothing secret in it), the rule (what is kept, what starts over)
/// and the book (its file format, tolerant reading, its bound).
final class ResumeTests: XCTestCase {
    func testKeys() {
        let rows: [(String, String?, String)] = [
            ("file:///home/u/Films/a%20b.mkv", "file:///home/u/Films/a%20b.mkv", "a local file is its absolute URI"),
            ("file:///home/u/Films/../Films/a.mkv", "file:///home/u/Films/a.mkv", "the path is standardised"),
            ("https://user:pw@CDN.reel-resume.test/v/a.mp4", "https://cdn.reel-resume.test/v/a.mp4", "user info goes, the host is lower case"),
            ("https://cdn.reel-resume.test/v/a.mp4?token=abcdef123456&id=7", "https://cdn.reel-resume.test/v/a.mp4?id=7", "a credential parameter goes, the identifying one stays"),
            ("https://cdn.reel-resume.test/a.mp4?id=7&Expires=1700000000&Signature=ZXhhbXBsZXNpZ25hdHVyZXZhbHVlbG9uZw&Key-Pair-Id=APKAEIBAERJR2EXAMPLE",
             "https://cdn.reel-resume.test/a.mp4?id=7",
             "a signature goes, and so does every parameter that does not name content (issue 46: an allow-list)"),
            ("https://cdn.reel-resume.test/a.mp4?pw=hunter2&api-key=k1&client-secret=c2&pin=1234&episode=3",
             "https://cdn.reel-resume.test/a.mp4?episode=3", "credentials under names nobody listed go (issue 46, item 13)"),
            ("https://cdn.reel-resume.test/a.mp4?st=0123456789abcdef0123456789abcdef", "https://cdn.reel-resume.test/a.mp4", "a long value of any name goes"),
            ("https://cdn.reel-resume.test/a.mp4#t=30", "https://cdn.reel-resume.test/a.mp4", "the fragment goes"),
            ("http://reel-recent.test/live.m3u8?lang=en&channel=2", "http://reel-recent.test/live.m3u8?channel=2&lang=en", "the order of parameters does not matter"),
            ("fd://0", nil, "standard input has no lasting identity"),
            ("data:video/mp4;base64,AAAA", nil, "nor a data URI"),
            ("rtsp://cam.reel-recent.test/stream", nil, "only files and HTTP(S)"),
        ]
        for (uri, expected, why) in rows {
            XCTAssertEqual(ResumeKey.key(for: uri), expected, why)
        }
    }

    func testARegisteredSecretNeverReachesAKey() {
        Redactor.register(secret: "s3cr3t-registered-value")
        XCTAssertEqual(ResumeKey.key(for: "https://cdn.reel-resume.test/a.mp4?x=s3cr3t-registered-value&id=1"), "https://cdn.reel-resume.test/a.mp4?id=1")
        XCTAssertNil(ResumeKey.key(for: "https://cdn.reel-resume.test/s3cr3t-registered-value/a.mp4"), "a secret in the path: not kept at all")
    }

    func testRule() {
        typealias D = ResumeRule.Decision
        let rows: [(Double, Double?, Bool, Bool, D, String)] = [
            (4, 10, false, false, .keep(position: 4, duration: 10), "left at 4 s of 10"),
            (0.5, 10, false, false, .forget, "under a second: nothing to resume"),
            (8.5, 10, false, false, .forget, "within 2 s of the end: finished"),
            (7.9, 10, false, false, .keep(position: 7.9, duration: 10), "just before that margin"),
            (4, 10, false, true, .forget, "played to its end"),
            (4, nil, false, false, .forget, "unknown length"),
            (40, 3600, true, false, .forget, "live"),
            (.nan, 10, false, false, .forget, "no position"),
        ]
        for (position, duration, live, ended, expected, why) in rows {
            XCTAssertEqual(ResumeRule.decide(position: position, duration: duration, isLive: live, ended: ended), expected, why)
        }
        let entry = ResumeBook.Entry(key: "file:///a", position: 4, duration: 10, saved: 0)
        XCTAssertEqual(ResumeRule.startPosition(for: entry, duration: nil), 4)
        XCTAssertNil(ResumeRule.startPosition(for: entry, duration: 5), "the file got shorter: start over")
    }

    func testBookKeepsTheNewestAndRoundTrips() throws {
        var book = ResumeBook()
        book.apply(.keep(position: 4, duration: 10), key: "file:///a.mp4", now: 100)
        book.apply(.keep(position: 7, duration: 20), key: "file:///b.mp4", now: 200)
        book.apply(.keep(position: 5, duration: 10), key: "file:///a.mp4", now: 300)
        XCTAssertEqual(book.entries.map(\.key), ["file:///a.mp4", "file:///b.mp4"], "newest first, one entry per key")
        XCTAssertEqual(book.entry(for: "file:///a.mp4")?.position, 5)
        book.apply(.forget, key: "file:///b.mp4", now: 400)
        XCTAssertNil(book.entry(for: "file:///b.mp4"))
        XCTAssertEqual(ResumeBook(json: book.json()), book)
        for i in 0..<(ResumeBook.capacity + 10) { book.apply(.keep(position: 2, duration: 9), key: "file:///n\(i)", now: Double(i)) }
        XCTAssertEqual(book.entries.count, ResumeBook.capacity)
        XCTAssertEqual(book.entries.first?.key, "file:///n\(ResumeBook.capacity + 9)")
    }

    /// Issue 60: the tracks, subtitle delay and speed kept with the place, read back within bounds.
    func testSettingsRoundTripAndOutOfBoundsOnesAreLeftOut() throws {
        var book = ResumeBook()
        let settings = ResumeBook.Settings(audioTrack: 1, subtitleTrack: -1, subtitleDelay: 0.25, speed: 1.5, audioLanguage: "fre", audioTitle: "French",
                                           audioDelay: 0.3, volume: 0.4, abLoop: ABLoop(a: 1, b: 5))
        book.apply(.keep(position: 4, duration: 10), key: "file:///a.mkv", now: 100, settings: settings)
        book.apply(.keep(position: 3, duration: 10), key: "file:///b.mp4", now: 101)
        let back = ResumeBook(json: book.json())
        XCTAssertEqual(back, book)
        XCTAssertEqual(back.entry(for: "file:///a.mkv")?.settings, settings)
        XCTAssertEqual(back.entry(for: "file:///b.mp4")?.settings, ResumeBook.Settings(), "an entry without them (an older book's)")
        let hostile = #"{"entries":[{"key":"file:///c.mp4","position":3,"duration":9,"audio":1e300,"subtitle":-7,"subDelay":9999,"speed":0,"audioDelay":1e9,"volume":-1,"abA":-3,"audioLang":""}]}"#
        XCTAssertEqual(ResumeBook(json: Data(hostile.utf8)).entry(for: "file:///c.mp4")?.settings, ResumeBook.Settings(), "out of bounds: left out")
    }

    /// The track kept is found again by language and title first, its index breaking ties, and by
    /// its index alone only when it had neither.
    func testAKeptTrackIsFoundByLanguageAndTitleBeforeItsIndex() {
        let tracks = [MediaTrack(id: "a", kind: .audio, language: "eng", title: "English"),
                      MediaTrack(id: "b", kind: .audio, language: "fre", title: "French"),
                      MediaTrack(id: "c", kind: .audio, language: "fre", title: "Commentary"),
                      MediaTrack(id: "d", kind: .audio)]
        let rows: [(index: Int?, language: String?, title: String?, expected: Int?, why: String)] = [
            (1, "fre", "French", 1, "as it was"),
            (0, "fre", "French", 1, "the file's order changed: the language and title win"),
            (0, "fre", "Commentary", 2, "the title tells two tracks of one language apart"),
            (2, "fre", "Director", 2, "no such title: of the language, the one at its index"),
            (0, "FRE", nil, 1, "the language alone, case aside: the first of it"),
            (nil, nil, "English", 0, "the title alone"),
            (3, nil, nil, 3, "a track without language nor title: its index"),
            (7, nil, nil, nil, "an index out of range"),
            (1, "ger", "German", nil, "another file under the name: nothing fits"),
        ]
        for row in rows {
            XCTAssertEqual(ResumeBook.Settings.trackIndex(in: tracks, index: row.index, language: row.language, title: row.title), row.expected, row.why)
        }
    }

    func testADamagedOrForeignFileReadsAsWhatIsUsable() {
        XCTAssertEqual(ResumeBook(json: Data("not json".utf8)).entries, [])
        XCTAssertEqual(ResumeBook(json: Data("[1,2]".utf8)).entries, [])
        let mixed = """
        {"version":1,"entries":[{"key":"file:///ok.mp4","position":3,"duration":9,"saved":1},
         {"key":"https://h/a.mp4?token=abcdef123456","position":3,"duration":9},
         {"key":"file:///neg.mp4","position":-1,"duration":9},
         {"key":"file:///ok.mp4","position":5,"duration":9},
         {"position":2,"duration":9}]}
        """
        XCTAssertEqual(ResumeBook(json: Data(mixed.utf8)).entries.map(\.key), ["file:///ok.mp4"],
                       "a key with a secret, a negative position, a duplicate and a keyless entry are skipped")
    }
}

/// What reaches the desktop's recent files.
final class RecentRuleTests: XCTestCase {
    func testOnlyItemsWithoutSecretsAreRemembered() {
        let rows: [(String, Bool, String?, String)] = [
            ("/home/u/a.mp4", false, "file:///home/u/a.mp4", "a path becomes its file URI"),
            ("file:///home/u/a.mp4", true, "file:///home/u/a.mp4", "a local file, whatever the credentials"),
            ("https://reel-recent.test/v/a.mp4?id=7", false, "https://reel-recent.test/v/a.mp4?id=7", "a plain URL"),
            ("https://reel-recent.test/v/a.mp4", true, nil, "a header or token goes with it"),
            ("https://reel-recent.test/v/a.mp4?token=abcdef123456", false, nil, "a credential parameter"),
            ("https://reel-recent.test/a.mp4?Signature=ZXhhbXBsZXNpZ25hdHVyZXZhbHVlbG9uZw", false, nil, "a signature-like value"),
            ("https://reel-recent.test/a.mp4?pw=hunter2", false, nil, "a parameter that does not name content (issue 46)"),
            ("https://user:pw@reel-recent.test/a.mp4", false, nil, "user info"),
            ("rtsp://reel-recent.test/a", false, nil, "not HTTP"),
        ]
        for (input, credentials, expected, why) in rows {
            XCTAssertEqual(RecentRule.uri(for: input, hasCredentials: credentials), expected, why)
        }
    }
}
