import XCTest
@testable import ReelCore

/// Languages and the choice of tracks: preferences, the previous item's languages, cycling.
final class TrackChoiceTests: XCTestCase {
    private let tracks = [
        MediaTrack(id: "v", kind: .video),
        MediaTrack(id: "a-en", kind: .audio, language: "eng", title: "English"),
        MediaTrack(id: "a-fr", kind: .audio, language: "fre", title: "Français"),
        MediaTrack(id: "s-en", kind: .subtitle, language: "en"),
        MediaTrack(id: "s-de", kind: .subtitle, language: "ger"),
    ]

    func testLanguageCodesMatchAcrossTheirForms() {
        let rows: [(String?, String?, Bool)] = [
            ("en", "eng", true), ("EN", "en-US", true), ("fr", "fre", true), ("fra", "fre", true), ("de", "ger", true),
            ("zh", "chi", true), ("pt-BR", "por", true), ("en", "fr", false), ("xx", "xx", true), (nil, "en", false), ("", "", false),
        ]
        for (a, b, expected) in rows { XCTAssertEqual(LanguageCode.matches(a, b), expected, "\(String(describing: a)) ~ \(String(describing: b))") }
    }

    func testTheInitialChoice() {
        let rows: [([String], [String], (String?, String?), TrackChoice, String)] = [
            ([], [], (nil, nil), TrackChoice(audio: "a-en", subtitle: nil), "the first audio, no subtitles"),
            (["fr"], [], (nil, nil), TrackChoice(audio: "a-fr", subtitle: nil), "--alang fr finds fre"),
            (["it", "fra"], ["de"], (nil, nil), TrackChoice(audio: "a-fr", subtitle: "s-de"), "the first preference present wins"),
            ([], [], ("fr", "en"), TrackChoice(audio: "a-fr", subtitle: "s-en"), "the previous item's languages carry over"),
            (["en"], [], ("fr", nil), TrackChoice(audio: "a-en", subtitle: nil), "a preference beats the carry-over"),
            (["ja"], ["ja"], (nil, nil), TrackChoice(audio: "a-en", subtitle: nil), "no match: the defaults"),
        ]
        for (alang, slang, previous, expected, why) in rows {
            XCTAssertEqual(TrackChoice.initial(tracks, alang: alang, slang: slang, previous: previous), expected, why)
        }
    }

    func testCyclingAndTheStreamsToSelect() {
        XCTAssertEqual(TrackChoice.nextAudio(after: "a-en", in: tracks), "a-fr")
        XCTAssertEqual(TrackChoice.nextAudio(after: "a-fr", in: tracks), "a-en", "wraps")
        XCTAssertEqual(TrackChoice.nextAudio(after: nil, in: tracks), "a-en")
        XCTAssertEqual(TrackChoice.nextSubtitle(after: nil, in: tracks), "s-en")
        XCTAssertEqual(TrackChoice.nextSubtitle(after: "s-en", in: tracks), "s-de")
        XCTAssertNil(TrackChoice.nextSubtitle(after: "s-de", in: tracks), "then off")
        XCTAssertNil(TrackChoice.nextSubtitle(after: nil, in: [MediaTrack(id: "v", kind: .video)]), "no subtitles at all")
        let choice = TrackChoice(audio: "a-fr", subtitle: "s-de")
        XCTAssertEqual(choice.streamIDs(tracks, subtitlesShown: true), ["v", "a-fr", "s-de"])
        XCTAssertEqual(choice.streamIDs(tracks, subtitlesShown: false), ["v", "a-fr"])
        XCTAssertEqual(tracks[2].label(number: 2), "Français (fre)")
        XCTAssertEqual(tracks[3].label(number: 1), "en")
        XCTAssertEqual(MediaTrack(id: "x", kind: .audio).label(number: 3), "Track 3")
    }
}
