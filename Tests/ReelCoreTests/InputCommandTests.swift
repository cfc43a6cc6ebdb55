import Foundation
import ReelCore
import ReelTestSupport
import XCTest

/// mpv's command vocabulary on the socket: its text form (`cycle pause`, as input.conf binds it)
/// and the property commands `cycle`, `add`, `cycle-values`, `set`, run against a target that
/// keeps what it is told.
@MainActor
private func runLine(_ d: IPCDispatcher, _ line: String) -> String {
    var out = ""
    d.handle(line) { out = $0 }
    return (try? JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])?["error"] as? String ?? out
}

final class InputCommandTests: XCTestCase {
    func testTheTextFormSplitsWordsAsMpvDoes() throws {
        XCTAssertEqual(try InputText.words("cycle pause"), [.string("cycle"), .string("pause")])
        XCTAssertEqual(try InputText.words("  add volume -2  # louder"), [.string("add"), .string("volume"), .int(-2)])
        XCTAssertEqual(try InputText.words("seek 5.5 relative exact"), [.string("seek"), .double(5.5), .string("relative"), .string("exact")])
        XCTAssertEqual(try InputText.words(#"screenshot "/tmp/a \"b\".png" window"#), [.string("screenshot"), .string(#"/tmp/a "b".png"#), .string("window")])
        XCTAssertEqual(try InputText.words(#"set sub-delay "10""#), [.string("set"), .string("sub-delay"), .string("10")], "quoted: a word")
        XCTAssertEqual(try InputText.words("cycle mute; quit"), [.string("cycle"), .string("mute")], "one command per binding")
        XCTAssertThrowsError(try InputText.words("   # nothing"))
        XCTAssertThrowsError(try InputText.words(#"screenshot "/tmp/open"#))
        XCTAssertEqual(try InputText.words("set aspect inf"), [.string("set"), .string("aspect"), .string("inf")], "inf is a word")
    }

    func testCycleAddCycleValuesAndSetInTextAndJSON() {
        onMain {
            let t = StandInTarget(state: PlaybackSnapshot(items: [.init(uri: "file:///m/a.mkv", title: "a")], index: 0, position: 4, duration: 10,
                                                          status: .readyToPlay, timeControl: .playing, wantsToPlay: true, volume: 0.5))
            let d = IPCDispatcher(target: t, screenshotDirectory: FileManager.default.temporaryDirectory, registry: t.registry)
            let rows: [(String, String, (PlaybackSnapshot) -> Bool)] = [
                ("cycle pause", "success", { !$0.wantsToPlay }),
                (#"{"command": ["cycle", "pause"]}"#, "success", { $0.wantsToPlay }),
                ("cycle mute", "success", { $0.muted }),
                ("add volume 2", "success", { abs($0.volume - 0.52) < 1e-9 }),
                ("add volume -200", "success", { $0.volume == 0 }),
                ("add volume", "success", { abs($0.volume - 0.02) < 1e-9 }),  // its step
                ("cycle aspect", "success", { $0.aspectMode == .fill }),
                ("cycle aspect", "success", { $0.aspectMode == .stretch }),
                ("cycle aspect", "success", { $0.aspectMode == .fit }),
                ("cycle aspect down", "success", { $0.aspectMode == .stretch }),
                ("cycle-values aspect fit fill", "success", { $0.aspectMode == .fit }),
                ("cycle-values aspect fit fill", "success", { $0.aspectMode == .fill }),
                ("cycle-values loop-file inf no", "success", { $0.loop == .track }),
                ("cycle-values loop-file inf no", "success", { $0.loop == .none }),
                ("add brightness 3", "success", { $0.picture[.brightness] == 3 }),
                ("add contrast -300", "success", { $0.picture[.contrast] == -100 }),
                ("add audio-delay 0.1", "success", { abs($0.audioDelay - 0.1) < 1e-9 }),
                ("add audio-delay -0.2", "success", { abs($0.audioDelay + 0.1) < 1e-9 }),
                ("set gamma -7", "success", { $0.picture[.gamma] == -7 }),
                ("set mute no", "success", { !$0.muted }),
                ("set mute yes", "success", { $0.muted }),
                ("cycle volume", "invalid-argument", { _ in true }),
                ("add aspect 1", "invalid-argument", { _ in true }),
                ("set volume loud", "unsupported format for accessing property", { _ in true }),
                ("set mute 3", "unsupported format for accessing property", { _ in true }),
                ("set volume 2000", "invalid-argument", { _ in true }),
                ("cycle duration", "read-only-property", { _ in true }),
                ("add nonsense 1", "unknown-property", { _ in true }),
                ("fly to the moon", "unknown-command", { _ in true }),
                (#"seek "5"#, "invalid-request", { _ in true }),
            ]
            for (line, expected, holds) in rows {
                XCTAssertEqual(runLine(d, line), expected, line)
                XCTAssertTrue(holds(t.state), "after “\(line)”: \(t.state)")
            }
            XCTAssertEqual(runLine(d, "seek 2 absolute exact"), "success")
            XCTAssertEqual(runLine(d, "add chapter 1"), "success")
            XCTAssertEqual(runLine(d, "cycle chapter down"), "success")
            XCTAssertEqual(runLine(d, "ab-loop"), "success")
            XCTAssertEqual(runLine(d, "cycle subtitle-track"), "success")
            XCTAssertEqual(t.calls.filter { !$0.hasPrefix("volume") && !$0.hasPrefix("muted") && $0 != "play" && $0 != "pause" },
                           ["seek 2.0 accurate", "chapter 1", "chapter -1", "ab-loop", "cycle subtitle"])
        }
    }
}

/// mpv's input.conf: keys by mpv's names, each command checked as the socket parses it.
final class InputBindingsTests: XCTestCase {
    func testKeysAreReadByMpvsNames() {
        let rows: [(String, KeyChord?)] = [
            ("a", KeyChord(key: "a")), ("A", KeyChord(key: "A")), ("SPACE", KeyChord(key: "SPACE")), ("space", KeyChord(key: "SPACE")),
            ("Ctrl+s", KeyChord(modifiers: .ctrl, key: "s")), ("ctrl++", KeyChord(modifiers: .ctrl, key: "+")),
            ("Shift+Ctrl+PGUP", KeyChord(modifiers: [.shift, .ctrl], key: "PGUP")), ("alt+F5", KeyChord(modifiers: .alt, key: "F5")),
            ("#", KeyChord(key: "SHARP")), ("KP_ADD", KeyChord(key: "KP_ADD")), ("+", KeyChord(key: "+")),
            ("Hyper+a", nil), ("FOO", nil), ("Ctrl+", nil), ("", nil),
        ]
        for (text, chord) in rows { XCTAssertEqual(KeyChord(parsing: text), chord, text) }
        XCTAssertEqual(KeyChord(modifiers: [.ctrl, .shift], key: "pgup").description, "Shift+Ctrl+PGUP")
    }

    func testBindingsIgnoreAndProblemsWithTheirLines() {
        let text = """
        # Reel's keys, mine
        x cycle pause
        Ctrl+k   add volume -10   # quieter
        SPACE ignore
        Hyper+q quit
        y fly away
        z seek "5

        a cycle-values aspect stretch fit
        """
        let b = InputBindings(text: text, name: "input.conf")
        XCTAssertEqual(b.command(for: KeyChord(key: "x")), "cycle pause")
        XCTAssertEqual(b.command(for: KeyChord(modifiers: .ctrl, key: "k")), "add volume -10   # quieter")
        XCTAssertEqual(b.command(for: KeyChord(key: "SPACE")), "ignore")
        XCTAssertEqual(b.command(for: KeyChord(key: "a")), "cycle-values aspect stretch fit")
        XCTAssertNil(b.command(for: KeyChord(key: "y")))
        XCTAssertEqual(b.problems.count, 3, "\(b.problems)")
        XCTAssertTrue(b.problems[0].hasPrefix("input.conf:5: unknown key"), b.problems[0])
        XCTAssertTrue(b.problems[1].hasPrefix("input.conf:6: y: Unknown command “fly”"), b.problems[1])
        XCTAssertTrue(b.problems[2].hasPrefix("input.conf:7: z: "), b.problems[2])
    }
}
