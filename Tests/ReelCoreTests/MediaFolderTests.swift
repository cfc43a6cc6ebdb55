import Foundation
import ReelCore
import XCTest

/// A folder as an input: its media files, in natural order, on a real tree.
final class MediaFolderTests: XCTestCase {
    func testWhichNamesAreMedia() {
        let table: [(String, Bool)] = [
            ("Song.mp3", true), ("FILM.MKV", true), ("clip.webm", true), ("a.flac", true), ("b.opus", true), ("c.m4b", true),
            ("cover.jpg", false), ("Film.en.srt", false), ("notes.txt", false), ("list.m3u", false), ("master.m3u8", false),
            ("manifest.mpd", false), (".hidden.mp3", false), ("noextension", false), ("mp3", false),
        ]
        for (name, media) in table { XCTAssertEqual(MediaFolder.isMediaFile(name), media, name) }
    }

    func testNaturalOrder() {
        XCTAssertEqual(MediaFolder.sorted(["10 Ten.mp3", "2 Two.mp3", "1 One.mp3", "b.mp3", "B.mp3", "a.mp3", "Disc 10", "Disc 9"]),
                       ["1 One.mp3", "2 Two.mp3", "10 Ten.mp3", "a.mp3", "B.mp3", "b.mp3", "Disc 9", "Disc 10"])
    }

    func testATreeIsItsMediaFilesWithoutHiddenOnesOrLoops() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("reel-folder-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let fm = FileManager.default
        for dir in ["Album", "Album/CD 10", "Album/CD 2", "Album/.thumbnails"] {
            try fm.createDirectory(at: root.appendingPathComponent(dir), withIntermediateDirectories: true)
        }
        for file in ["Album/10.mp3", "Album/2.mp3", "Album/cover.jpg", "Album/CD 2/1.flac", "Album/CD 10/1.flac", "Album/.thumbnails/t.mp3",
                     "Album/.~lock.mp3"] {
            _ = fm.createFile(atPath: root.appendingPathComponent(file).path, contents: Data([1]))
        }
        // A link back up (a loop if followed) and a link to a file, which plays.
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("Album/CD 2/loop").path, withDestinationPath: root.appendingPathComponent("Album").path)
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("Album/zz-link.mp3").path,
                                  withDestinationPath: root.appendingPathComponent("Album/2.mp3").path)
        let album = root.appendingPathComponent("Album").path
        XCTAssertEqual(MediaFolder.files(in: album).map { String($0.dropFirst(album.count + 1)) },
                       ["2.mp3", "10.mp3", "CD 2/1.flac", "CD 10/1.flac", "zz-link.mp3"])
        XCTAssertEqual(MediaFolder.files(in: root.appendingPathComponent("Album/.thumbnails/none").path), [], "not there")
        XCTAssertEqual(MediaFolder.files(in: root.appendingPathComponent("Album/10.mp3").path), [], "a file is not a folder")
    }
}

/// mpv's autoload: the files beside one opened file.
final class MediaFolderSiblingsTests: XCTestCase {
    func testTheMediaBesideAFileInNaturalOrderWithItsIndex() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reel-siblings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("extras"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for name in ["ep10.mkv", "ep2.mkv", "Ep1.mkv", "ep2.srt", "cover.jpg", "notes.txt", ".hidden.mkv", "extras/bonus.mkv", "odd.xyz"] {
            _ = FileManager.default.createFile(atPath: dir.appendingPathComponent(name).path, contents: Data([1]))
        }
        let found = try XCTUnwrap(MediaFolder.siblings(of: dir.appendingPathComponent("ep2.mkv").path))
        XCTAssertEqual(found.files.map { ($0 as NSString).lastPathComponent }, ["Ep1.mkv", "ep2.mkv", "ep10.mkv"])
        XCTAssertEqual(found.index, 1)
        // A file of a kind the folder does not play, opened by the user, still plays among them.
        let odd = try XCTUnwrap(MediaFolder.siblings(of: dir.appendingPathComponent("odd.xyz").path))
        XCTAssertEqual(odd.files.map { ($0 as NSString).lastPathComponent }, ["Ep1.mkv", "ep2.mkv", "ep10.mkv", "odd.xyz"])
        XCTAssertEqual(odd.index, 3)
        XCTAssertNil(MediaFolder.siblings(of: dir.appendingPathComponent("extras/bonus.mkv").path), "alone in its folder: nothing to add")
        XCTAssertNil(MediaFolder.siblings(of: "/nonexistent/folder/a.mkv"))
    }
}
