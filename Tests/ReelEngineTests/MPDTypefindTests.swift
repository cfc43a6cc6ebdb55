import CReelFrame
import Foundation
import XCTest

/// Reel's DASH typefinder (`reel_mpd_typefind.h`): an MPD is an XML text whose first element is
/// MPD, whatever the length of its start tag (GStreamer 1.22's own wants the tag's '>' within
/// the 512 bytes it peeks in push mode, and types ffmpeg's live MPDs application/xml).
final class MPDTypefindTests: XCTestCase {
    func testTheFirstElementDecides() {
        let longRoot = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<MPD xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"\n\txmlns=\"urn:mpeg:dash:schema:mpd:2011\"\n"
            + String(repeating: "\tattribute=\"a long value of an attribute\"\n", count: 20) + "\ttype=\"dynamic\">\n<Period/></MPD>"
        let rows: [(String, [UInt8], Bool)] = [
            ("ffmpeg's live root, its '>' past byte 512", Array(longRoot.utf8), true),
            ("the same cut at 512 bytes (what push-mode typefinding has)", Array(longRoot.utf8.prefix(512)), true),
            ("a BOM, comments, a processing instruction, a DOCTYPE",
             [0xEF, 0xBB, 0xBF] + Array("<?xml version=\"1.0\"?><!-- a <MPD> in a comment is not one --><?pi x?><!DOCTYPE MPD>\n  <MPD>".utf8), true),
            ("a namespace prefix", Array("<dash:MPD xmlns:dash=\"urn:mpeg:dash:schema:mpd:2011\">".utf8), true),
            ("an empty root", Array("<MPD/>".utf8), true),
            ("another root element", Array("<?xml version=\"1.0\"?><html><MPD></MPD></html>".utf8), false),
            ("a longer name", Array("<MPDX a=\"1\">".utf8), false),
            ("a prefix alone", Array("<x:MPDs>".utf8), false),
            ("cut inside the name", Array("<MP".utf8), false),
            ("cut right after the name", Array("<MPD".utf8), false),
            ("an unterminated comment", Array("<!-- <MPD>".utf8), false),
            ("text first", Array("MPD <MPD>".utf8), false),
            ("an HLS playlist", Array("#EXTM3U\n#EXT-X-VERSION:3\n".utf8), false),
            ("nothing", [], false),
        ]
        for (name, bytes, expected) in rows {
            let got = bytes.withUnsafeBufferPointer { reel_mpd_first_element($0.baseAddress, $0.count) }
            XCTAssertEqual(got == 1, expected, name)
        }
        XCTAssertEqual(reel_mpd_first_element(nil, 10), 0)
    }
}
