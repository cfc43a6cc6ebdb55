import ReelCore
import XCTest
@testable import ReelUI

final class KeyMapTests: XCTestCase {
    private func command(_ key: UInt32, _ mods: KeyModifiers = [], _ state: PlayerViewState = PlayerViewState()) -> KeyCommand? {
        KeyMap.command(keyval: key, modifiers: mods, state: state)
    }

    func testEveryShortcutMapsAsMpvAndCelluloidDo() {
        var s = PlayerViewState()
        s.volume = 0.5
        s.rate = 1
        let table: [(UInt32, KeyModifiers, KeyCommand?)] = [
            (KeySym.space, [], .action(.playPause)),
            (KeySym.char("p"), [], .action(.playPause)),
            (KeySym.char("f"), [], .action(.toggleFullscreen)),
            (KeySym.char("F"), [.shift], .action(.changeSubtitleScale(by: -0.1))),
            (KeySym.char("G"), [.shift], .action(.changeSubtitleScale(by: 0.1))),
            (KeySym.char("z"), [], .action(.changeSubtitleDelay(by: -0.1))),
            (KeySym.char("Z"), [.shift], .action(.changeSubtitleDelay(by: 0.1))),
            (KeySym.char("r"), [], .action(.changeSubtitlePosition(by: -1))),
            (KeySym.char("R"), [.shift], .action(.changeSubtitlePosition(by: 1))),
            (KeySym.f11, [], .action(.toggleFullscreen)),
            (KeySym.escape, [], nil),  // not fullscreen: Esc does nothing
            (KeySym.char("m"), [], .action(.toggleMute)),
            (KeySym.nine, [], .action(.setVolume(0.45))),
            (KeySym.zero, [], .action(.setVolume(0.55))),
            (KeySym.left, [], .action(.skip(by: -5))),
            (KeySym.right, [], .action(.skip(by: 5))),
            (KeySym.up, [], .action(.skip(by: 60))),
            (KeySym.down, [], .action(.skip(by: -60))),
            (KeySym.left, .shift, .action(.skip(by: -1))),
            (KeySym.right, .shift, .action(.skip(by: 1))),
            (KeySym.bracketleft, [], .action(.setRate(0.75))),
            (KeySym.bracketright, [], .action(.setRate(1.25))),
            (KeySym.backSpace, [], .action(.resetRate)),
            (KeySym.period, [], .action(.frameStep(forward: true))),
            (KeySym.comma, [], .action(.frameStep(forward: false))),
            (KeySym.less, .shift, .action(.previous)),
            (KeySym.greater, .shift, .action(.next)),
            (KeySym.char("s"), [], .action(.captureFrame)),
            (KeySym.char("s"), .control, .action(.captureWindow)),
            (KeySym.char("q"), [], .action(.quit)),
            (KeySym.char("o"), .control, .openFilesDialog),
            (KeySym.char("O"), [.control, .shift], .openFolderDialog),
            (KeySym.char("l"), .control, .openURLDialog),
            (KeySym.f9, [], .action(.togglePlaylist)),
            (KeySym.question, .shift, .shortcutsWindow),
            (KeySym.char("x"), [], nil),
            (KeySym.char("p"), .control, nil),
            (KeySym.space, .alt, nil),
        ]
        for (key, mods, expected) in table {
            XCTAssertEqual(command(key, mods, s), expected, "key 0x\(String(key, radix: 16)) mods \(mods.rawValue)")
        }
    }

    func testPageUpAndDownStepChaptersAsMpv() {
        var s = PlayerViewState()
        s.chapters = [Chapter(title: "A", time: 0), Chapter(title: nil, time: 3)]
        XCTAssertEqual(command(KeySym.pageUp, [], s), .action(.stepChapter(1)), "mpv: PGUP add chapter 1")
        XCTAssertEqual(command(KeySym.pageDown, [], s), .action(.stepChapter(-1)), "mpv: PGDWN add chapter -1")
    }

    func testTheVolumeKeysGoToVolumeMax() {
        var s = PlayerViewState()
        s.volume = 1.28
        XCTAssertEqual(command(KeySym.zero, [], s), .action(.setVolume(1.3)), "up to mpv's 130 %")
        s.volume = 1.3
        XCTAssertEqual(command(KeySym.zero, [], s), .action(.setVolume(1.3)))
        s.volumeMax = 1.5
        XCTAssertEqual(command(KeySym.zero, [], s), .action(.setVolume(1.35)))
    }

    func testMpvsLoopPictureAndAudioDelayKeys() {
        let rows: [(UInt32, KeyModifiers, KeyCommand?)] = [
            (KeySym.char("l"), [], .action(.cycleABLoop)), (KeySym.char("L"), .shift, .action(.toggleLoopFile)),
            (KeySym.char("1"), [], .action(.changePicture(.contrast, by: -1))), (KeySym.char("2"), [], .action(.changePicture(.contrast, by: 1))),
            (KeySym.char("3"), [], .action(.changePicture(.brightness, by: -1))), (KeySym.char("4"), [], .action(.changePicture(.brightness, by: 1))),
            (KeySym.char("5"), [], .action(.changePicture(.gamma, by: -1))), (KeySym.char("6"), [], .action(.changePicture(.gamma, by: 1))),
            (KeySym.char("7"), [], .action(.changePicture(.saturation, by: -1))), (KeySym.char("8"), [], .action(.changePicture(.saturation, by: 1))),
            (KeySym.plus, [.control, .shift], .action(.changeAudioDelay(by: 0.1))), (KeySym.equal, .control, .action(.changeAudioDelay(by: 0.1))),
            (KeySym.kpAdd, .control, .action(.changeAudioDelay(by: 0.1))), (KeySym.minus, .control, .action(.changeAudioDelay(by: -0.1))),
            (KeySym.kpSubtract, .control, .action(.changeAudioDelay(by: -0.1))), (KeySym.minus, [], nil),
        ]
        for (key, mods, expected) in rows {
            XCTAssertEqual(command(key, mods), expected, "key 0x\(String(key, radix: 16)) mods \(mods.rawValue)")
        }
    }

    func testEscapeLeavesFullscreenOnly() {
        var s = PlayerViewState()
        s.isFullscreen = true
        XCTAssertEqual(command(KeySym.escape, [], s), .action(.toggleFullscreen))
        s.isFullscreen = false
        XCTAssertNil(command(KeySym.escape, [], s))
    }

    func testEndGoesLiveOnALiveItemOnly() {
        var s = PlayerViewState()
        XCTAssertNil(command(KeySym.end, [], s), "nothing to go to on VOD")
        s.live = LivePosition(position: 2, window: 0...12, behindLiveEdge: 10, epochTime: nil)
        XCTAssertEqual(command(KeySym.end, [], s), .action(.goLive))
    }

    func testVolumeClampsAndSpeedStaysWithinHalfToDouble() {
        var s = PlayerViewState()
        s.volume = 1.3
        XCTAssertEqual(command(KeySym.zero, [], s), .action(.setVolume(1.3)), "volume-max, mpv's 130 %")
        s.volume = 0.02
        XCTAssertEqual(command(KeySym.nine, [], s), .action(.setVolume(0)))
        s.rate = 2
        XCTAssertEqual(command(KeySym.bracketright, [], s), .action(.setRate(2)))
        s.rate = 0.5
        XCTAssertEqual(command(KeySym.bracketleft, [], s), .action(.setRate(0.5)))
        s.rate = 1.1  // between steps: to the neighbouring step
        XCTAssertEqual(command(KeySym.bracketright, [], s), .action(.setRate(1.25)))
        XCTAssertEqual(command(KeySym.bracketleft, [], s), .action(.setRate(1)))
    }

    func testGdkStateKeepsOnlyShiftControlAlt() {
        // GDK_SHIFT_MASK | GDK_LOCK_MASK | GDK_CONTROL_MASK | GDK_MOD2_MASK (num lock)
        let mods = KeyModifiers(gdkState: 1 | 2 | 4 | 16)
        XCTAssertEqual(mods, [.shift, .control])
    }

    func testHelpListsEveryShortcut() {
        let keys = KeyMap.help.map(\.keys).joined(separator: " ")
        for k in ["Space", "p", "F11", "Esc", "m", "9", "0", "←", "↑", "Shift", "[", "]", "Backspace", ",", ".", "<", ">", "s", "q", "Ctrl+o", "Ctrl+l", "F9", "End", "?", "a", "#", "j", "v"] {
            XCTAssertTrue(keys.contains(k), "help is missing \(k)")
        }
    }
}

/// Key presses named as input.conf names them (`KeyChord(keyval:modifiers:)`).
final class KeyChordNameTests: XCTestCase {
    func testKeyPressesGetMpvsNames() {
        let rows: [(UInt32, KeyModifiers, String?)] = [
            (KeySym.char("a"), [], "a"), (KeySym.char("A"), .shift, "A"), (KeySym.space, [], "SPACE"), (KeySym.char("s"), .control, "Ctrl+s"),
            (KeySym.plus, [.control, .shift], "Ctrl++"), (KeySym.pageUp, .shift, "Shift+PGUP"), (KeySym.left, .alt, "Alt+LEFT"),
            (KeySym.numbersign, .shift, "SHARP"), (0xffc2, [], "F5"), (0x1008ff14, [], "PLAY"), (0xffe1, .shift, nil),  // Shift alone
        ]
        for (keyval, mods, name) in rows {
            XCTAssertEqual(KeyChord(keyval: keyval, modifiers: mods)?.description, name, "0x\(String(keyval, radix: 16))")
        }
    }
}
