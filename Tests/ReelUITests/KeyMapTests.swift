import ReelCore
import XCTest
@testable import ReelUI

final class KeyMapTests: XCTestCase {
    /// What a key does: the built-in input.conf's command (`DefaultKeys`), else the window's own.
    private func command(_ key: UInt32, _ mods: KeyModifiers = [], _ state: PlayerViewState = PlayerViewState()) -> KeyCommand? {
        KeyMap.defaultCommand(keyval: key, modifiers: mods).map { .action(.command($0)) } ?? KeyMap.command(keyval: key, modifiers: mods, state: state)
    }

    private func bound(_ text: String) -> KeyCommand { .action(.command(text)) }

    func testEveryShortcutMapsAsMpvAndCelluloidDo() {
        var s = PlayerViewState()
        s.volume = 0.5
        s.rate = 1
        let table: [(UInt32, KeyModifiers, KeyCommand?)] = [
            (KeySym.space, [], bound("cycle pause")),
            (KeySym.char("p"), [], bound("cycle pause")),
            (KeySym.char("f"), [], bound("cycle fullscreen")),
            (KeySym.char("F"), [.shift], bound("add sub-scale -0.1")),
            (KeySym.char("G"), [.shift], bound("add sub-scale 0.1")),
            (KeySym.char("z"), [], bound("add sub-delay -0.1")),
            (KeySym.char("Z"), [.shift], bound("add sub-delay 0.1")),
            (KeySym.char("r"), [], bound("add sub-pos -1")),
            (KeySym.char("R"), [.shift], bound("add sub-pos 1")),
            (KeySym.f11, [], bound("cycle fullscreen")),
            (KeySym.escape, [], nil),  // not fullscreen: Esc does nothing
            (KeySym.char("m"), [], bound("cycle mute")),
            (KeySym.nine, [], bound("add volume -5")),
            (KeySym.zero, [], bound("add volume 5")),
            (KeySym.left, [], bound("seek -5")),
            (KeySym.right, [], bound("seek 5")),
            (KeySym.kpLeft, [], bound("seek -5")),
            (KeySym.up, [], bound("seek 60")),
            (KeySym.down, [], bound("seek -60")),
            (KeySym.left, .shift, bound("seek -1")),
            (KeySym.right, .shift, bound("seek 1")),
            (KeySym.bracketleft, [], .action(.setRate(0.75))),
            (KeySym.bracketright, [], .action(.setRate(1.25))),
            (KeySym.backSpace, [], bound("set speed 1")),
            (KeySym.period, [], bound("frame-step")),
            (KeySym.comma, [], bound("frame-back-step")),
            (KeySym.less, .shift, bound("playlist-prev")),
            (KeySym.greater, .shift, bound("playlist-next")),
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
        XCTAssertEqual(command(KeySym.pageUp), bound("add chapter 1"), "mpv: PGUP add chapter 1")
        XCTAssertEqual(command(KeySym.pageDown), bound("add chapter -1"), "mpv: PGDWN add chapter -1")
    }

    func testMpvsLoopPictureAndAudioDelayKeys() {
        let rows: [(UInt32, KeyModifiers, KeyCommand?)] = [
            (KeySym.char("l"), [], bound("ab-loop")), (KeySym.char("L"), .shift, bound("cycle-values loop-file inf no")),
            (KeySym.char("1"), [], bound("add contrast -1")), (KeySym.char("2"), [], bound("add contrast 1")),
            (KeySym.char("3"), [], bound("add brightness -1")), (KeySym.char("4"), [], bound("add brightness 1")),
            (KeySym.char("5"), [], bound("add gamma -1")), (KeySym.char("6"), [], bound("add gamma 1")),
            (KeySym.char("7"), [], bound("add saturation -1")), (KeySym.char("8"), [], bound("add saturation 1")),
            (KeySym.plus, [.control, .shift], bound("add audio-delay 0.1")), (KeySym.equal, .control, bound("add audio-delay 0.1")),
            (KeySym.kpAdd, .control, bound("add audio-delay 0.1")), (KeySym.minus, .control, bound("add audio-delay -0.1")),
            (KeySym.kpSubtract, .control, bound("add audio-delay -0.1")), (KeySym.minus, [], nil),
            (KeySym.left, .alt, bound("add video-pan-x 0.1")), (KeySym.plus, [.alt, .shift], bound("add video-zoom 0.1")),
            (KeySym.backSpace, .alt, bound("set video-zoom 0; set video-pan-x 0; set video-pan-y 0")),
        ]
        for (key, mods, expected) in rows {
            XCTAssertEqual(command(key, mods), expected, "key 0x\(String(key, radix: 16)) mods \(mods.rawValue)")
        }
    }

    /// The built-in input.conf is read by the binding parser without a problem, every command one
    /// the socket parses, and no key is bound twice (the window's own keys are not in it).
    func testTheBuiltInInputConfParsesWholeAndLeavesTheWindowsKeysAlone() {
        XCTAssertEqual(DefaultKeys.bindings.problems, [])
        let lines = DefaultKeys.inputConf.split(separator: "\n")
        let lost = lines.filter { line in
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            return KeyChord(parsing: parts[0]).flatMap { DefaultKeys.bindings.command(for: $0) } != parts[1]
        }
        XCTAssertEqual(lost, [], "a key bound twice (or not read)")
        XCTAssertEqual(DefaultKeys.bindings.commands.count, lines.count)
        for key: UInt32 in [KeySym.escape, KeySym.end, KeySym.bracketleft, KeySym.bracketright, KeySym.char("s"), KeySym.char("q"), KeySym.char("i"), KeySym.f9, KeySym.question] {
            XCTAssertNil(KeyMap.defaultCommand(keyval: key, modifiers: []), "0x\(String(key, radix: 16)) is the window's own")
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

    /// Issue 60: the window goes past 2× (to 4×, and down to 0.25×), as the socket does.
    func testSpeedStepsFromAQuarterToFourTimes() {
        var s = PlayerViewState()
        s.rate = 2
        XCTAssertEqual(command(KeySym.bracketright, [], s), .action(.setRate(3)))
        s.rate = 4
        XCTAssertEqual(command(KeySym.bracketright, [], s), .action(.setRate(4)), "the top step stays")
        s.rate = 0.5
        XCTAssertEqual(command(KeySym.bracketleft, [], s), .action(.setRate(0.25)))
        s.rate = 0.25
        XCTAssertEqual(command(KeySym.bracketleft, [], s), .action(.setRate(0.25)))
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
            (KeySym.kpLeft, [], "KP_LEFT"),
        ]
        for (keyval, mods, name) in rows {
            XCTAssertEqual(KeyChord(keyval: keyval, modifiers: mods)?.description, name, "0x\(String(keyval, radix: 16))")
            // `keypress` makes the same chord again (mpv's over the socket).
            if let name, let chord = KeyChord(parsing: name), let press = chord.keyPress {
                XCTAssertEqual(KeyChord(keyval: press.keyval, modifiers: press.modifiers)?.description, name)
            }
        }
    }
}
