import ReelCore
import XCTest

final class MediaLocatorTests: XCTestCase {
    func testURIs() {
        let base = URL(fileURLWithPath: "/media/videos", isDirectory: true)
        let table: [(String, String)] = [
            ("https://h/a.m3u8", "https://h/a.m3u8"),
            ("file:///a/b.mp4", "file:///a/b.mp4"),
            ("/abs/a b.mp4", "file:///abs/a%20b.mp4"),
            ("rel/c.mp4", "file:///media/videos/rel/c.mp4"),
            ("../up.mp4", "file:///media/up.mp4"),
            ("C:clip.mp4", "file:///media/videos/C:clip.mp4"),
        ]
        for (input, expected) in table { XCTAssertEqual(MediaLocator.uri(for: input, relativeTo: base), expected, input) }
    }

    func testNames() {
        XCTAssertEqual(MediaLocator.displayName(of: "file:///a/b%20c.mp4"), "b c.mp4")
        XCTAssertEqual(MediaLocator.displayName(of: "https://h/live/index.m3u8?token=x"), "index.m3u8")
        XCTAssertEqual(MediaLocator.displayName(of: "https://example.org/"), "example.org")
        XCTAssertEqual(MediaLocator.localPath(of: "file:///a/b%20c.mp4"), "/a/b c.mp4")
        XCTAssertNil(MediaLocator.localPath(of: "https://h/a"))
    }

    func testOddInputsFromFuzzingDoNotTrap() {
        // "file:ho://" + a lone UTF-8 lead byte made NSString.lastPathComponent trap.
        let input = String(decoding: [0x66, 0x69, 0x6c, 0x65, 0x3a, 0x68, 0x6f, 0x3a, 0x2f, 0x2f, 0xd9] as [UInt8], as: UTF8.self)
        _ = MediaLocator.displayName(of: input)
        _ = MediaLocator.displayName(of: MediaLocator.uri(for: input))
        XCTAssertEqual(MediaLocator.lastPathComponent("/a/b/"), "b")
        XCTAssertEqual(MediaLocator.lastPathComponent("/"), "/")
        XCTAssertEqual(MediaLocator.lastPathComponent(""), "")
        XCTAssertEqual(MediaLocator.lastPathComponent("name"), "name")
    }
}
