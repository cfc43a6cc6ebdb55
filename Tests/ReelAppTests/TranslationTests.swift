import Foundation
import ReelTestSupport
import XCTest

/// The catalogues (issue 50): po/reel.pot holds every `tr("…")` string of the sources (as
/// `make pot` extracts them), and the German, French and Spanish catalogues translate each of them
/// and pass `msgfmt --check` (formats, headers).
final class TranslationTests: XCTestCase {
    private let root = TestMedia.packageRoot

    private func msgids(_ file: URL) throws -> Set<String> {
        let text = try String(contentsOf: file, encoding: .utf8)
        let re = try NSRegularExpression(pattern: #"^msgid "(.*)"$"#, options: .anchorsMatchLines)
        return Set(re.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { m in
            Range(m.range(at: 1), in: text).map { String(text[$0]) }
        }.filter { !$0.isEmpty })
    }

    func testThePotHasEveryStringOfTheSourcesAndEveryCatalogueTranslatesIt() throws {
        let dir = TestMedia.temporaryDirectory("reel-pot")
        defer { try? FileManager.default.removeItem(at: dir) }
        let sources = ProcessRunner.run("/bin/bash", ["-c", "cd '\(root.path)' && grep -rlE '\\btr\\(\"' Sources --include='*.swift' | LC_ALL=C sort"], timeout: 30)
            .stdout.split(separator: "\n").map(String.init)
        XCTAssertGreaterThan(sources.count, 10)
        let fresh = dir.appendingPathComponent("fresh.pot")
        let x = ProcessRunner.run("/usr/bin/xgettext", ["--language=C", "--keyword=tr", "--from-code=UTF-8", "--no-wrap", "-o", fresh.path, "--directory", root.path] + sources, timeout: 60)
        XCTAssertEqual(x.status, 0, x.stderr)
        let wanted = try msgids(fresh)
        XCTAssertGreaterThan(wanted.count, 80)
        XCTAssertEqual(try msgids(root.appendingPathComponent("po/reel.pot")), wanted, "po/reel.pot is what the sources say: run make pot")
        for language in ["de", "fr", "es"] {
            let po = root.appendingPathComponent("po/\(language).po")
            let check = ProcessRunner.run("/usr/bin/msgfmt", ["--check", "--statistics", "-o", "/dev/null", po.path], timeout: 30)
            XCTAssertEqual(check.status, 0, "\(language): \(check.stderr)")
            XCTAssertEqual(check.stderr.trimmingCharacters(in: .whitespacesAndNewlines), "\(wanted.count) translated messages.", "\(language): every string translated")
        }
    }

    /// An error on stderr in the user's language; the event's code stays as it is.
    func testAnErrorIsSaidInTheUsersLanguageAndItsCodeStays() {
        let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["--headless", "--events", "--audio-sink", "fakesink", "--video-sink", "fakesink", "/nonexistent/film.mp4"],
                                  timeout: 30, environment: ["LANG": "C.UTF-8", "LANGUAGE": "es"])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("film.mp4: El archivo no existe."), r.stderr)
        XCTAssertTrue(r.stdout.contains("\"code\":\"not-found\""), r.stdout)
    }

    /// What the session itself says on stderr (not only the items' errors) is in the user's
    /// language: a `--start` past the queue, in French and in German.
    func testTheSessionsOwnMessagesAreSaidInTheUsersLanguage() {
        for (language, expected) in [("fr", "--start=9 : la file contient 1 élément(s)"), ("de", "--start=9: die Warteschlange hat 1 Eintrag/Einträge")] {
            let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["--headless", "--start=9", "--audio-sink", "fakesink", "--video-sink", "fakesink", TestMedia.path("clip2s.mp4")],
                                      timeout: 30, environment: ["LANG": "C.UTF-8", "LANGUAGE": language])
            XCTAssertEqual(r.status, 2)
            XCTAssertTrue(r.stderr.contains(expected), "\(language): \(r.stderr)")
        }
    }
    /// What reel says on stderr about the files a user wrote (a line of reel.conf it leaves out, a
    /// playlist line it cannot read) is in their language, with the file and the line number.
    func testProblemsInTheUsersOwnFilesAreSaidInTheirLanguageWithTheLine() throws {
        let dir = TestMedia.temporaryDirectory("reel-tr-files")
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("reel")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try "[fast]\nvolume=50\n".write(to: config.appendingPathComponent("reel.conf"), atomically: true, encoding: .utf8)
        let list = dir.appendingPathComponent("list.m3u")
        try "#EXTM3U\n#EXTINF:abc,One\n\(TestMedia.path("clip2s.mp4"))\nFile1\u{7}x\n".write(to: list, atomically: true, encoding: .utf8)
        let expected = [
            "de": ["reel.conf:1: Profile ([…]) werden nicht unterstützt", "list.m3u: Zeile 2: die #EXTINF-Dauer „abc“ ist keine Zahl",
                   "Zeile 4: Binärdaten in der Zeile; übersprungen"],
            "fr": ["reel.conf:1 : les profils ([…]) ne sont pas pris en charge", "list.m3u: ligne 2 : la durée #EXTINF « abc » n’est pas un nombre",
                   "ligne 4 : données binaires dans la ligne ; ignorée"],
            "es": ["reel.conf:1: los perfiles ([…]) no están admitidos", "list.m3u: línea 2: la duración de #EXTINF «abc» no es un número",
                   "línea 4: datos binarios en la línea; se omite"],
        ]
        for (language, lines) in expected {
            let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["--headless", "--audio-sink", "fakesink", "--video-sink", "fakesink", list.path],
                                      timeout: 30, environment: ["LANG": "C.UTF-8", "LANGUAGE": language, "XDG_CONFIG_HOME": dir.path])
            for line in lines { XCTAssertTrue(r.stderr.contains(line), "\(language): \(line) in \(r.stderr)") }
            XCTAssertFalse(r.stderr.contains("line 2"), "\(language): nothing left in English: \(r.stderr)")
        }
    }
}
