import XCTest
@testable import ReelCore

/// Same-language renditions of one group kept apart for hlsdemux2 1.22 (`HLSRenditionLanguages`),
/// and the language read back (`LanguageCode`): masters as ffmpeg and Apple's authoring spec
/// write them.
final class HLSRenditionLanguagesTests: XCTestCase {
    private func media(_ group: String, _ name: String, _ language: String?, type: String = "AUDIO", uri: String? = "x.m3u8") -> String {
        "#EXT-X-MEDIA:TYPE=\(type),GROUP-ID=\"\(group)\",NAME=\"\(name)\""
            + (language.map { ",LANGUAGE=\"\($0)\"" } ?? "") + (uri.map { ",URI=\"\($0)\"" } ?? "")
    }

    /// The LANGUAGE of each `EXT-X-MEDIA` of the served master, in order.
    private func languages(_ text: String) -> [String?] {
        HLSLine.split(text).filter { $0.content.hasPrefix("#EXT-X-MEDIA:") }.map { HLSAttributeList(parsing: $0.content.dropFirst(13))["LANGUAGE"] }
    }

    func testLaterNamesakesInAGroupAreTaggedAndEverythingElseIsKept() {
        let rows: [(lines: [String], expected: [String?], why: String)] = [
            ([media("aud", "audio_0", "en"), media("aud", "audio_1", "en"), media("aud", "audio_2", "es")],
             ["en", "en-x-reel2", "es"], "ffmpeg's master: two English tracks in one group"),
            ([media("st", "English", "en-US"), media("st", "AD", "en-US"), media("st", "Commentary", "en-US")],
             ["en-US", "en-US-x-reel2", "en-US-x-reel3"], "three of one language: each its own rank"),
            ([media("stereo", "English", "en"), media("surround", "English", "en"), media("stereo", "AD", "en"), media("surround", "AD", "en")],
             ["en", "en", "en-x-reel2", "en-x-reel2"], "one language across groups is one stream (the variant chooses the group)"),
            ([media("aud", "English", "en"), media("subs", "English", "en", type: "SUBTITLES"), media("subs", "English SDH", "en", type: "SUBTITLES")],
             ["en", "en", "en-x-reel2"], "types are apart: audio and subtitles of one language"),
            ([media("aud", "Main", "en", uri: nil), media("aud", "Commentary", "en")],
             ["en", "en"], "a rendition in the variant (no URI) makes no stream of its own"),
            ([media("aud", "A", nil), media("aud", "B", nil)], [nil, nil], "no LANGUAGE: hlsdemux2 tells them by NAME"),
            ([media("aud", "A", "en"), media("aud", "B", "EN")], ["en", "EN"], "hlsdemux2 compares the text as written"),
        ]
        for row in rows {
            let master = (["#EXTM3U"] + row.lines + ["#EXT-X-STREAM-INF:BANDWIDTH=1,AUDIO=\"aud\"", "v.m3u8", ""]).joined(separator: "\r\n")
            let served = HLSRenditionLanguages.separating(master)
            XCTAssertEqual(languages(served), row.expected, row.why)
            // Only the LANGUAGE values changed: the same lines, terminators and attributes otherwise.
            let strip = { (t: String) in t.replacingOccurrences(of: #"-x-reel\d"#, with: "", options: .regularExpression) }
            XCTAssertEqual(strip(served), master, row.why)
        }
        let plain = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n"
        XCTAssertEqual(HLSRenditionLanguages.separating(plain), plain)
    }

    func testLanguageTagsAndTheReelSubtag() {
        let tags: [(String, Bool)] = [("en", true), ("eng", true), ("en-US", true), ("es-419", true), ("zh-Hant-TW", true),
                                      ("en-x-reel2", true), ("English", false), ("", false), ("e", false), ("en-", false), ("en US", false),
                                      ("fr_FR", false), ("日本語", false)]
        for (tag, expected) in tags { XCTAssertEqual(LanguageCode.isTag(tag), expected, tag) }
        let stripped: [(String, String)] = [("en-x-reel2", "en"), ("en-US-x-reel3", "en-US"), ("en", "en"), ("en-x-other", "en-x-other"),
                                            ("en-x-reel", "en-x-reel")]
        for (tag, expected) in stripped { XCTAssertEqual(LanguageCode.withoutReelSubtag(tag), expected, tag) }
        XCTAssertTrue(LanguageCode.matches("es", "es-419"), "--alang es finds a Latin American Spanish rendition")
    }
}
