import Foundation
import ReelCore
@testable import ReelEngine
import ReelTestSupport
import XCTest
import ReelGLib

/// A seek after playbin3's about-to-finish took the next URI, before the switch reached the sinks
/// (the current item's input has drained: uridecodebin3 is switching its input to the next item).
/// In 1.22 such a flushing seek went to the *next* item's source (the current one reported "cut
/// short"), and now and then deadlocked the main thread against uridecodebin3's switch
/// (NumericVerbsTests under load). `Workarounds/SeekDuringGaplessSwitch.swift`.
final class SeekDuringGaplessSwitchTests: XCTestCase {
    /// color10s.mp4 playing from 8.5 s with clip2s.mp4 prepared, until its input has drained and
    /// about-to-finish took the next item.
    @MainActor
    private static func atTheSwitch() throws -> EngineHarness {
        let h = try EngineHarness()
        h.loadReady("color10s.mp4", at: 8.5)
        h.player.prepareNext(TestMedia.path("clip2s.mp4"))
        h.player.play()
        h.wait("about-to-finish took the next item", timeout: 5) { h.player.seekMeetsGaplessSwitch }
        return h
    }

    func testASeekBackWhileTheNextItemIsTakenPlaysThisItemFromThereThenTheNext() throws {
        try onMain {
            let h = try Self.atTheSwitch()
            defer { h.shutdown() }
            h.player.seek(to: 3, mode: .accurate)
            h.wait("the seek landed") { !h.player.isSeeking }
            XCTAssertEqual(h.player.position, 3, accuracy: 0.3, "where the seek went")
            XCTAssertTrue(h.player.currentURI?.hasSuffix("color10s.mp4") ?? false, "still the first item: \(h.player.currentURI ?? "none")")
            h.wait("1 s on from 3 s") { h.player.position >= 4 }
            XCTAssertTrue(h.player.currentURI?.hasSuffix("color10s.mp4") ?? false, "still the first item: \(h.player.currentURI ?? "none")")
            XCTAssertEqual(h.warnings.count, 0, "not reported cut short: \(h.warnings)")
            XCTAssertEqual(h.errors.count, 0, "\(h.errors)")
            let changes = h.events.filter { if case .itemChanged = $0.event { true } else { false } }.count
            XCTAssertEqual(changes, 1, "no switch to the next item yet")
            // The next item, held while the restart was made, still follows this one.
            h.player.seek(to: 9, mode: .accurate)
            h.wait("the next item", timeout: 8) { h.player.currentURI?.hasSuffix("clip2s.mp4") ?? false }
            XCTAssertEqual(h.warnings.count, 0, "this item played to its end: \(h.warnings)")
            XCTAssertEqual(h.errors.count, 0, "\(h.errors)")
        }
    }

    /// A rate change in the same moment: the item goes on at the new rate from where it was.
    func testARateChangeWhileTheNextItemIsTakenKeepsThisItem() throws {
        try onMain {
            let h = try Self.atTheSwitch()
            defer { h.shutdown() }
            let from = h.player.position
            XCTAssertTrue(h.player.setRate(-1))
            h.wait("the rate change landed") { !h.player.isSeeking }
            h.wait("playing backwards from \(from)") { h.player.position < from - 0.5 }
            XCTAssertTrue(h.player.currentURI?.hasSuffix("color10s.mp4") ?? false, "still the first item: \(h.player.currentURI ?? "none")")
            XCTAssertEqual(h.warnings.count, 0, "not reported cut short: \(h.warnings)")
            XCTAssertEqual(h.errors.count, 0, "\(h.errors)")
        }
    }
}
