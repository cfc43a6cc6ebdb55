import CGtk
import Foundation
import ReelCore
import ReelTestSupport
import XCTest
@testable import ReelUI

/// The controls redraw the window only when what they show changes (issue 58: on Wayland every
/// redraw costs a new whole-window buffer and a copy into it). A real window under Xvfb is
/// rendered as the session renders it, at every progress tick, and GTK's own `draw` emissions on
/// it are counted.
final class ControlsRedrawTests: XCTestCase {
    /// Counts the window's `draw` emissions (a C callback, the counter behind `user_data`).
    private static let countDraw: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Int32 = { _, _, data in
        data?.assumingMemoryBound(to: Int.self).pointee += 1
        return 0  // GDK_EVENT_PROPAGATE: drawing goes on
    }

    func testAFilmsProgressTicksRedrawOnlyWhenTheElapsedTimeOrTheSliderMoves() throws {
        try onMain {
            // A 2-hour film: its bar's slider moves a pixel in ~18 s, its elapsed label once a second.
            var state = WindowHarness.sample(title: "film.mkv", position: 100, duration: 7200)
            state.wantsToPlay = true
            let harness = try WindowHarness(state: state)
            defer { harness.close() }
            let draws = UnsafeMutablePointer<Int>.allocate(capacity: 1)
            draws.initialize(to: 0)
            defer { draws.deallocate() }
            let handler = g_signal_connect_data(harness.window.window, "draw", unsafeBitCast(Self.countDraw, to: GCallback.self), draws, nil, GConnectFlags(rawValue: 0))
            defer { g_signal_handler_disconnect(harness.window.window, handler) }
            UIRuntime.settle()
            draws.pointee = 0

            // Twenty ticks of 0.2 s each (the session's default progress interval): 4 s of play.
            var labels: Set<String> = []
            for tick in 1...20 {
                state.position = 100 + Double(tick) * 0.2
                harness.window.render(state)
                labels.insert(TimeFormat.clock(state.position))
                UIRuntime.spin(for: 0.05)
            }
            UIRuntime.settle()
            // The elapsed label changed 4 times (1:40 → 1:44); each change may take a frame, and
            // nothing else should.
            XCTAssertGreaterThanOrEqual(draws.pointee, 1, "the elapsed label's changes are drawn")
            XCTAssertLessThanOrEqual(draws.pointee, labels.count + 1, "\(draws.pointee) redraws for \(labels.count) texts in 20 ticks")

            // A jump (a seek) moves the slider at once, by however little; so does a step back.
            state.position = 3600
            harness.window.render(state)
            XCTAssertEqual(harness.window.controls.seekValue, 3600, accuracy: 1e-9)
            state.position = 3599.99
            harness.window.render(state)
            XCTAssertEqual(harness.window.controls.seekValue, 3599.99, accuracy: 1e-9)
            // A short clip's bar moves every tick: its creep is more than a pixel.
            var clip = WindowHarness.sample(position: 2.5, duration: 10)
            clip.wantsToPlay = true
            harness.window.render(clip)
            clip.position = 2.7
            harness.window.render(clip)
            XCTAssertEqual(harness.window.controls.seekValue, 2.7, accuracy: 1e-9)
        }
    }
}
