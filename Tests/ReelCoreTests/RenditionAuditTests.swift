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

/// A variant's declarations against the decoded stream, as a table.
final class HLSDeclarationsTests: XCTestCase {
    func testTheTable() {
        func v(_ codecs: [String], _ fps: Double?, _ r: HLSResolution? = HLSResolution(width: 640, height: 360)) -> HLSVariant {
            HLSVariant(uri: "v.m3u8", bandwidth: 1, averageBandwidth: nil, resolution: r, codecs: codecs, frameRate: fps, audioGroup: nil,
                       videoGroup: nil, subtitlesGroup: nil, closedCaptionsGroup: nil, isIFrameOnly: false)
        }
        let rows: [(String, HLSVariant, Double?, String?, [String])] = [
            ("all agree", v(["avc1.42c01e", "mp4a.40.2"], 30), 30, "H.264 (Constrained Baseline Profile)", []),
            ("29.97 declared as 29.970", v(["avc1.4d401f"], 29.97), 30000.0 / 1001, "H.264", []),
            ("no CODECS", v([], 30), 30, "H.264", ["codecs-missing"]),
            ("HEVC declared, H.264 decoded", v(["hvc1.1.6.L93.B0"], 30), 30, "H.264", ["codecs-mismatch"]),
            ("HEVC both", v(["hev1.1.6.L93.B0"], 30), 30, "H.265 (Main Profile)", []),
            ("no FRAME-RATE", v(["avc1.42c01e"], nil), 30, "H.264", ["frame-rate-missing"]),
            ("FRAME-RATE wrong", v(["avc1.42c01e"], 25), 30, "H.264", ["frame-rate-mismatch"]),
            ("resolution wrong", v(["avc1.42c01e"], 30, HLSResolution(width: 1280, height: 720)), 30, "H.264", ["resolution-mismatch"]),
        ]
        for (name, variant, fps, codec, expected) in rows {
            let found = HLSAudit.declarations(variant, width: 640, height: 360, frameRate: fps, videoCodec: codec, name: "v")
            XCTAssertEqual(found.map(\.code), expected, name)
        }
    }
}
