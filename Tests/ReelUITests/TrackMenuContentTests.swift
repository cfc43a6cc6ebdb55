import ReelCore
import XCTest
@testable import ReelUI

/// The tracks menu's sections, chosen entries and button text for the tracks an item has.
final class TrackMenuContentTests: XCTestCase {
    private let en = MediaTrack(id: "a1", kind: .audio, language: "en", title: "English")
    private let fr = MediaTrack(id: "a2", kind: .audio, language: "fr")
    private let sub = MediaTrack(id: "s1", kind: .subtitle, language: "en")
    private let file = MediaTrack(id: "file:0", kind: .subtitle, title: "film.srt", isExternal: true)
    private let video = MediaTrack(id: "v", kind: .video)

    private func state(_ tracks: [MediaTrack], audio: String? = nil, subtitle: String? = nil, shown: Bool = true) -> PlayerViewState {
        var s = PlayerViewState()
        s.tracks = tracks
        s.audioTrack = audio
        s.subtitleTrack = subtitle
        s.subtitlesShown = shown
        return s
    }

    func testSectionsChoicesAndLabel() {
        let table: [(String, PlayerViewState, [String?], [String], Set<String>, String)] = [
            ("one audio track, no subtitles: nothing to choose", state([video, en], audio: "a1"), [], [], ["audio:a1", "subtitle:"], ""),
            ("two audio tracks", state([video, en, fr], audio: "a2"), ["Audio"], ["English (en)", "fr"], ["audio:a2", "subtitle:"], "fr"),
            ("subtitles and a file: the file may also be the secondary", state([video, en, sub, file], audio: "a1", subtitle: "file:0"),
             ["Subtitles", "Secondary subtitles"], ["None", "en", "film.srt", "None", "film.srt"], ["audio:a1", "subtitle:file:0", "secondary:"], "sub 2"),
            ("hidden subtitles say off", state([en, fr, sub], audio: "a1", subtitle: "s1", shown: false), ["Audio", "Subtitles"],
             ["English (en)", "fr", "None", "en"], ["audio:a1", "subtitle:"], "en · sub off"),
        ]
        for (name, s, headings, labels, chosen, label) in table {
            let made = TrackMenuContent.make(s)
            XCTAssertEqual(made.sections.map(\.heading), headings, name)
            XCTAssertEqual(made.sections.flatMap(\.entries).map(\.label), labels, name)
            XCTAssertEqual(made.chosen, chosen, name)
            XCTAssertEqual(made.label, label, name)
        }
    }

    func testTheSecondaryIsChosenAmongTheFiles() {
        var s = state([video, en, sub, file, MediaTrack(id: "file:1", kind: .subtitle, language: "fr", title: "film.fr.srt", isExternal: true)],
                      audio: "a1", subtitle: "file:0")
        s.secondarySubtitleTrack = "file:1"
        let made = TrackMenuContent.make(s)
        XCTAssertEqual(made.sections.last?.heading, "Secondary subtitles")
        XCTAssertEqual(made.sections.last?.entries.map(\.choice), ["secondary:", "secondary:file:0", "secondary:file:1"], "files only: the media's own streams are not drawn by Reel")
        XCTAssertEqual(made.chosen, ["audio:a1", "subtitle:file:0", "secondary:file:1"])
        XCTAssertEqual(TrackMenuContent.action("secondary:file:1"), .selectSecondarySubtitleTrack("file:1"))
        XCTAssertEqual(TrackMenuContent.action("secondary:"), .selectSecondarySubtitleTrack(nil))
    }

    func testEntriesMapToActions() {
        XCTAssertEqual(TrackMenuContent.action("audio:a2"), .selectAudioTrack("a2"))
        XCTAssertEqual(TrackMenuContent.action("subtitle:file:0"), .selectSubtitleTrack("file:0"))
        XCTAssertEqual(TrackMenuContent.action("subtitle:"), .selectSubtitleTrack(nil))
    }
}
