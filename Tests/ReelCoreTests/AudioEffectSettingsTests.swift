@testable import ReelCore
import XCTest

/// Issue 61: the sound's effects as the audio filter they make (`AudioEffectSettings`): none at
/// all while every effect is off (the default path as before), each effect's element when on.
final class AudioEffectSettingsTests: XCTestCase {
    func testTheFilterForEachEffectAndNoneWhenAllAreOff() {
        var s = AudioEffectSettings()
        XCTAssertFalse(s.anyOn)
        XCTAssertNil(s.filterDescription(keepPitch: false), "off: no filter")
        XCTAssertEqual(s.filterDescription(keepPitch: true), "scaletempo", "off: the pitch-keeping filter alone, as before")
        s.replayGain = .album
        s.replayGainPreamp = -2.5
        XCTAssertEqual(s.filterDescription(keepPitch: false), "audioconvert ! rgvolume name=reel-replaygain album-mode=true pre-amp=-2.5 ! audioconvert")
        s = AudioEffectSettings()
        s.dialogueBoost = true
        XCTAssertEqual(s.filterDescription(keepPitch: true), "scaletempo ! audioconvert name=reel-dialogue ! audio/x-raw,channels=2 ! audioconvert")
        s = AudioEffectSettings()
        s.nightMode = true
        XCTAssertTrue(s.filterDescription(keepPitch: false)?.contains("audiodynamic name=reel-night mode=compressor") == true)
        XCTAssertTrue(s.filterDescription(keepPitch: false)?.contains("volume name=reel-night-gain volume=2.0") == true)
        s = AudioEffectSettings()
        s.equalizer = AudioEffectSettings.presets.first { $0.name == "rock" }!.gains
        XCTAssertEqual(s.equalizerPreset, "rock")
        XCTAssertEqual(s.filterDescription(keepPitch: false),
                       "audioconvert ! equalizer-10bands name=reel-equalizer band0=5 band1=4 band2=2 band3=-1 band4=-2 band5=-1 band6=2 band7=4 band8=5 band9=5 ! audioconvert")
        s.equalizer[9] = 0.5
        XCTAssertNil(s.equalizerPreset, "a curve of the user's own")
        XCTAssertEqual(s.equalizerText, "5,4,2,-1,-2,-1,2,4,5,0.5")
    }

    func testEqualizerGainsAsTheyAreWritten() {
        let table: [(String, [Double]?)] = [
            ("0,0,0,0,0,-24,0,0,0,0", [0, 0, 0, 0, 0, -24, 0, 0, 0, 0]),
            ("1 2 3 4 5 6 7 8 9 10", [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]),
            ("99,-99,0,0,0,0,0,0,0,0", [12, -24, 0, 0, 0, 0, 0, 0, 0, 0]),
            ("1,2,3", nil),
            ("a,0,0,0,0,0,0,0,0,0", nil),
            ("nan,0,0,0,0,0,0,0,0,0", nil),
            ("0,0,0,0,0,0,0,0,0,0,0", nil),
        ]
        for (text, expected) in table { XCTAssertEqual(AudioEffectSettings.gains(text), expected, text) }
        XCTAssertEqual(AudioEffectSettings.presets.count, Set(AudioEffectSettings.presets.map(\.name)).count, "names are unique")
        XCTAssertTrue(AudioEffectSettings.presets.allSatisfy { $0.gains.count == 10 && $0.gains.allSatisfy(AudioEffectSettings.equalizerRange.contains) })
    }
}
