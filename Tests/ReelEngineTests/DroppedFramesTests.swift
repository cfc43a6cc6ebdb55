import Foundation
import ReelCore
@_spi(Testing) import ReelEngine
import ReelTestSupport
import XCTest

/// Dropped frames as a viewer misses them: behind a sink that cannot keep up (identity sleeping
/// 50 ms a frame, a 30 fps clip), the sink drops what is over 20 ms late and tells the decoder
/// (QoS), which then skips frames the sink never sees (here it skips them all before the sink
/// must: 40 shown, 20 skipped, where the sink's own `stats` said 0 dropped). Both are counted,
/// each frame once.
final class DroppedFramesTests: XCTestCase {
    override func setUp() { TestMedia.ensureGenerated() }

    /// The 2 s clip played to its end on the clock into `sink`: its frame counts.
    private func play(into sink: String) throws -> (counts: (rendered: Int, dropped: Int), upstream: Int) {
        try onMain {
            let h = try EngineHarness(videoSink: sink + " ! fakesink sync=true qos=true max-lateness=20000000 enable-last-sample=true")
            defer { h.shutdown() }
            h.player.load(TestMedia.path("clip2s.mp4"))
            h.player.play()
            h.wait("end", timeout: 30) { h.ended == 1 || !h.errors.isEmpty }
            XCTAssertEqual(h.errors, [])
            return (h.player.videoFrameCounts, h.player.upstreamDroppedFrames)
        }
    }

    func testFramesSkippedByTheDecoderAreCountedWithTheSinksOwn() throws {
        let (counts, upstream) = try play(into: "identity sleep-time=50000")
        XCTAssertGreaterThan(counts.dropped, 10, "a third of the frames at least cannot be shown in time: \(counts)")
        XCTAssertGreaterThan(upstream, 0, "the decoder skipped some, told by the sink's QoS: \(counts)")
        XCTAssertLessThanOrEqual(counts.rendered + counts.dropped, 60, "the clip's 60 frames, none counted twice: \(counts)")
        XCTAssertGreaterThanOrEqual(counts.rendered + counts.dropped, 55, "every frame is shown or counted dropped: \(counts)")
    }

    /// A sink that keeps up drops (next to) nothing, and shows every frame. On the clock, a
    /// machine busy with other tests may be late now and then: a few at most.
    func testASinkThatKeepsUpDropsNothing() throws {
        let (counts, _) = try play(into: "identity")
        XCTAssertEqual(counts.rendered + counts.dropped, 60, "\(counts)")
        XCTAssertLessThanOrEqual(counts.dropped, 3, "\(counts)")
    }
}
