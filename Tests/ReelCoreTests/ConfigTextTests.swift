import ReelCore
import XCTest

/// reel.conf edited by the preferences window: the option's own line changes, everything else
/// stays byte for byte.
final class ConfigTextTests: XCTestCase {
    func testAnOptionsLineChangesAndEveryOtherLineStays() {
        let rows: [(text: String, key: String, value: String, expected: String, why: String)] = [
            ("# mine\nhwdec=auto\nvolume-max=120\n", "hwdec", "no", "# mine\nhwdec=no\nvolume-max=120\n", "the line replaced, the comment above kept"),
            ("hwdec=auto # fast\n", "hwdec", "no", "hwdec=no # fast\n", "its own comment kept"),
            ("--hwdec=auto\n", "hwdec", "no", "hwdec=no\n", "the command line's form"),
            ("hwdec=auto\nhwdec=no\n", "hwdec", "auto", "hwdec=auto\nhwdec=auto\n", "the last line is the one in force"),
            ("no-resume\n", "resume", "yes", "resume=yes\n", "a flag turned off"),
            ("resume\n", "resume", "no", "resume=no\n", "a bare flag"),
            ("# hwdec=no\n", "hwdec", "no", "# hwdec=no\nhwdec=no\n", "a commented-out line is a comment"),
            ("volume-max=120", "hwdec", "no", "volume-max=120\nhwdec=no\n", "added at the end, after a line without its newline"),
            ("", "alang", "fr,en", "alang=fr,en\n", "an empty file"),
            ("[profile]\nhwdec=auto\n", "hwdec", "no", "[profile]\nhwdec=no\n", "a line Reel does not read stays"),
            ("\n\n  # indented\n", "slang", "de", "\n\n  # indented\nslang=de\n", "blank lines and indentation stay"),
        ]
        for row in rows {
            XCTAssertEqual(ConfigText.setting(row.key, to: row.value, in: row.text), row.expected, row.why)
        }
    }

    func testTheValueInForceIsTheLastLines() {
        XCTAssertEqual(ConfigText.value(of: "hwdec", in: "hwdec=auto\n# x\nhwdec=no # off\n"), "no")
        XCTAssertEqual(ConfigText.value(of: "resume", in: "no-resume\n"), "no")
        XCTAssertEqual(ConfigText.value(of: "resume", in: "resume\n"), "yes")
        XCTAssertEqual(ConfigText.value(of: "alang", in: "alang=\"fr,en\"\n"), "fr,en")
        XCTAssertNil(ConfigText.value(of: "slang", in: "# slang=de\n"))
    }
}
