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

    /// hlsdemux2 1.22's stream ids carry an HLS rendition's NAME (no title tag): read back as the
    /// title; other demuxers' ids never are.
    func testAnHLSRenditionsNameIsReadFromItsStreamID() {
        let rows: [(String, MediaTrack.Kind, String?, String?, String)] = [
            ("audio-English (Audio Description)", .audio, "en", "English (Audio Description)", "hlsdemux2: audio-NAME"),
            ("text-Français", .subtitle, "fr", "Français", "hlsdemux2: text-NAME"),
            ("audio-audio_0", .audio, "en", "audio_0", "ffmpeg's own NAME"),
            ("audio-en", .audio, "en", nil, "no NAME: the id is the language"),
            ("text-EN", .subtitle, "en", nil, "the language in other case"),
            ("audio-0", .audio, nil, nil, "dashdemux2: audio-N"),
            ("text-12", .subtitle, nil, nil, "dashdemux2: text-N"),
            ("main-audio-1", .audio, nil, nil, "the main variant's stream"),
            ("video-hi", .video, nil, nil, "video renditions are not named tracks"),
            ("text-Français", .audio, "fr", nil, "a text id on an audio stream"),
            ("9b2e6f…/001", .audio, "en", nil, "a file demuxer's id"),
            ("audio-", .audio, nil, nil, "nothing after the prefix"),
        ]
        for (id, kind, language, expected, why) in rows {
            XCTAssertEqual(MediaTrack.renditionName(streamID: id, kind: kind, language: language), expected, why)
        }
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
