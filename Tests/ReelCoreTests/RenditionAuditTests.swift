import ReelCore
import XCTest

/// Black, frozen, silent and aspect ratio as a table of small luma pictures and peaks.
final class RenditionAuditTests: XCTestCase {
    private let black = [UInt8](repeating: 16, count: 576)
    private let picture = (0..<576).map { UInt8($0 % 200) }
    private var moved: [UInt8] { picture.map { $0 &+ 30 } }
    private var captioned: [UInt8] { var p = black; p[10] = 235; return p }

    func testTheTable() {
        let r = HLSResolution(width: 640, height: 360)
        let rows: [(String, [[UInt8]], (Double, UInt64)?, HLSResolution?, (Int, Int)?, [String])] = [
            ("moving, loud", [picture, moved], (0.5, 1000), r, (640, 360), []),
            ("all black", [black, black], (0.5, 1000), r, (640, 360), ["black-video"]),
            ("some black", [black, picture], (0.5, 1000), r, (640, 360), ["black-frame"]),
            ("a caption on black is a picture (frozen, not black)", [captioned, captioned], nil, nil, nil, ["frozen-video"]),
            ("frozen", [picture, picture, picture], nil, nil, nil, ["frozen-video"]),
            ("one frame cannot be frozen", [picture], nil, nil, nil, []),
            ("silent", [picture, moved], (0.0001, 1000), nil, nil, ["silent-audio"]),
            ("no audio measured is not silence", [picture, moved], (0, 0), nil, nil, []),
            ("aspect", [picture, moved], nil, HLSResolution(width: 640, height: 480), (640, 360), ["aspect-mismatch"]),
            ("same aspect, other size", [picture, moved], nil, HLSResolution(width: 1280, height: 720), (640, 360), []),
        ]
        for (name, frames, peak, declared, decoded, expected) in rows {
            let found = RenditionAudit.problems(frames: frames, audioPeak: peak.map { (level: $0.0, samples: $0.1) }, declared: declared,
                                                decoded: decoded.map { (width: $0.0, height: $0.1) }, name: "r")
            XCTAssertEqual(found.map(\.code), expected, name)
        }
    }
}
