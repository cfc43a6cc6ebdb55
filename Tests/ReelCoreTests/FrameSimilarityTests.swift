import ReelCore
import ReelTestSupport
import XCTest

/// SSIM, PSNR and the changed areas of `reel check --golden`, on synthetic luma planes.
final class FrameSimilarityTests: XCTestCase {
    private let w = FrameSimilarity.size.width, h = FrameSimilarity.size.height

    /// A picture with structure everywhere: diagonal stripes and a gradient.
    private func picture() -> [UInt8] {
        (0..<(w * h)).map { i in
            let x = i % w, y = i / w
            return UInt8(truncatingIfNeeded: ((x + y) / 6 % 2 == 0 ? 60 : 180) + x / 8)
        }
    }

    func testIdenticalPlanesScoreOne() {
        let a = picture()
        let s = FrameSimilarity.compare(a, a, width: w, height: h)
        XCTAssertEqual(s.ssim, 1, accuracy: 1e-12)
        XCTAssertEqual(s.worstTile, 1, accuracy: 1e-12)
        XCTAssertEqual(s.psnr, .infinity)
        XCTAssertTrue(s.changedAreas.isEmpty)
        XCTAssertEqual(s.columns, (w - 8) / 4 + 1)
        XCTAssertEqual(s.rows, (h - 8) / 4 + 1)
    }

    /// Mild noise (what a re-encode does) keeps the score high; a changed block lowers it and is
    /// where the changed areas are.
    func testNoiseScoresHighAndAChangedBlockIsFound() {
        let a = picture()
        var random = SplitMix(seed: 7)
        let noisy = a.map { UInt8(clamping: Int($0) + Int(random.next() % 7) - 3) }
        let n = FrameSimilarity.compare(a, noisy, width: w, height: h)
        XCTAssertGreaterThan(n.ssim, GoldenFrames.defaultThreshold)
        XCTAssertGreaterThan(n.psnr, 35)
        var boxed = a
        for y in 10..<40 { for x in 100..<140 { boxed[y * w + x] = 30 } }
        let b = FrameSimilarity.compare(a, boxed, width: w, height: h)
        XCTAssertLessThan(b.ssim, n.ssim)
        XCTAssertLessThan(b.worstTile, b.ssim, "the block's tiles are worse than the picture's mean")
        XCTAssertLessThan(b.worstTile, GoldenFrames.defaultThreshold)
        XCTAssertGreaterThan(n.worstTile, GoldenFrames.defaultThreshold, "noise everywhere is mild everywhere")
        XCTAssertLessThan(b.psnr, n.psnr)
        let areas = b.changedAreas
        XCTAssertFalse(areas.isEmpty)
        for area in areas {
            // Every marked window touches the block (100…140 × 10…40 of 160 × 90).
            XCTAssertTrue(area.x + area.width > 100.0 / 160 && area.x < 140.0 / 160 && area.y + area.height > 10.0 / 90 && area.y < 40.0 / 90, "\(area)")
        }
        XCTAssertLessThan(FrameSimilarity.compare(a, a.map { 255 - $0 }, width: w, height: h).ssim, 0, "an inverted picture is anti-correlated")
    }

    /// Items are matched by input across runs, a repeated input by its occurrence.
    func testKeysAndTheReferenceIndex() {
        var a = CheckReport.Item(index: 0, input: "https://cdn.example/a.m3u8?token=SECRET", uri: "", title: "A")
        a.frames = [.init(requested: "10%", file: "frames/000-a.png"), .init(requested: "50%", problem: "no video")]
        var b = CheckReport.Item(index: 1, input: "/media/b.mp4", uri: "", title: "B")
        b.frames = [.init(requested: "10%", file: "frames/001-b.png")]
        var again = CheckReport.Item(index: 2, input: "/media/b.mp4", uri: "", title: "B")
        again.frames = [.init(requested: "10%", file: "frames/002-b.png")]
        let keys = GoldenFrames.keys([a, b, again])
        XCTAssertFalse(keys[0].contains("SECRET"), "keys are redacted: \(keys[0])")
        XCTAssertEqual(Array(keys.dropFirst()), ["/media/b.mp4", "/media/b.mp4 #2"])
        let index = GoldenFrames.index(CheckReport(items: [a, b, again], positions: ["10%", "50%"]))
        XCTAssertEqual(index[keys[0]], ["10%": "frames/000-a.png"])
        XCTAssertEqual(index["/media/b.mp4 #2"], ["10%": "frames/002-b.png"])
    }

    /// The comparison survives report.json (merge and later runs read it back).
    func testTheGoldenResultRoundTrips() throws {
        var item = CheckReport.Item(index: 0, input: "/a.mp4", uri: "file:///a.mp4", title: "a")
        var frame = CheckReport.Frame(requested: "1", target: 1, time: 1, file: "frames/a.png", width: 640, height: 360)
        frame.golden = CheckReport.Golden(file: "golden/a.png", ssim: 0.812, worstTile: 0.5, psnr: 21.5, diff: "frames/a-diff.png", same: false)
        item.frames = [frame]
        let report = CheckReport(items: [item], positions: ["1"])
        let back = try CheckReport.decode(Data(report.jsonText.utf8))
        XCTAssertEqual(back.items.first?.frames.first?.golden, frame.golden)
        // Only identical frames read 1.0: 0.9996 is written 0.999.
        frame.golden?.ssim = 0.9996
        item.frames = [frame]
        let close = try CheckReport.decode(Data(CheckReport(items: [item], positions: ["1"]).jsonText.utf8))
        XCTAssertEqual(close.items.first?.frames.first?.golden?.ssim, 0.999)
    }
}
