@testable import ReelCore
import XCTest

/// Which files beside a film are its subtitles, and in which language — as mpv, VLC and Totem
/// find them.
final class SidecarSubtitlesTests: XCTestCase {
    func testMatchesByNameLanguageAndFolder() {
        let names = ["Film.mkv", "Film.srt", "Film.en.srt", "film.FR.vtt", "Film.eng.forced.ass", "Film.English.SDH.srt", "Film.pt-BR.srt",
                     "Film 2.srt", "Film.nfo", "Film.mkv.srt", "Other.en.srt", "Filmography.srt", "Subs", "Subs/Film.de.ass",
                     "Extras/Film.srt", "Film.sub", "Film.cc.srt"]
        let found = SidecarSubtitles.matches(for: "Film.mkv", among: names)
        XCTAssertEqual(found.map(\.path), ["Film.mkv.srt", "Film.srt", "Film.cc.srt", "Film.en.srt", "Film.eng.forced.ass",
                                           "Film.English.SDH.srt", "film.FR.vtt", "Film.pt-BR.srt", "Subs/Film.de.ass"])
        let byPath = Dictionary(uniqueKeysWithValues: found.map { ($0.path, $0) })
        XCTAssertNil(byPath["Film.srt"]?.language)
        XCTAssertEqual(byPath["Film.en.srt"]?.language, "en")
        XCTAssertEqual(byPath["film.FR.vtt"]?.language, "FR")
        XCTAssertEqual(byPath["Film.eng.forced.ass"]?.language, "eng")
        XCTAssertEqual(byPath["Film.eng.forced.ass"]?.flags, ["forced"])
        XCTAssertEqual(byPath["Film.English.SDH.srt"]?.language, "en")
        XCTAssertEqual(byPath["Film.English.SDH.srt"]?.flags, ["sdh"])
        XCTAssertEqual(byPath["Film.pt-BR.srt"]?.language, "pt-BR")
        XCTAssertNil(byPath["Film.cc.srt"]?.language, "cc is no language")
        XCTAssertTrue(SidecarSubtitles.matches(for: ".mkv", among: names).isEmpty)
    }

    func testLanguageInAGivenFileName() {
        let table: [(String, String?)] = [("/x/talk.de.srt", "de"), ("Film.English.forced.ass", "en"), ("film.srt", nil),
                                          ("a.b.fre.vtt", "fre"), ("notes.final.srt", nil)]
        for (name, language) in table { XCTAssertEqual(SidecarSubtitles.language(inFileName: name), language, name) }
    }

    func testAFileOfSubtitlesIsShownUnlessAPreferenceSaysOtherwise() {
        let tracks = [MediaTrack(id: "a", kind: .audio, language: "en"), MediaTrack(id: "s1", kind: .subtitle, language: "en"),
                      MediaTrack(id: "file:0", kind: .subtitle, language: "fr", isExternal: true)]
        XCTAssertEqual(TrackChoice.initial(tracks).subtitle, "file:0", "a file beside the film is shown")
        XCTAssertEqual(TrackChoice.initial(tracks, slang: ["en"]).subtitle, "s1")
        XCTAssertEqual(TrackChoice.initial(tracks, slang: ["fra"]).subtitle, "file:0")
        let choice = TrackChoice(audio: "a", subtitle: "file:0")
        XCTAssertEqual(choice.streamIDs(tracks, subtitlesShown: true), ["a"], "a file is never asked of playbin3")
    }
}
