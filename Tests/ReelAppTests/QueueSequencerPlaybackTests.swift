import Foundation
@testable import ReelApp
import ReelCore
import ReelEngine
import ReelTestSupport
import XCTest
import ReelGLib

/// `QueueSequencer` over a real playbin3 player (synchronised fakesinks) on generated clips.
/// XCTest on Linux cannot call @MainActor test methods, so each test enters the main actor itself.
final class QueueSequencerPlaybackTests: XCTestCase {
    @MainActor
    private final class Harness {
        let player: Player
        let controller: QueueSequencer
        var events: [(event: PlayerEvent, item: Int?)] = []

        init(_ names: [String], repeatMode: RepeatMode = .off, audioLanguages: [String] = []) throws {
            var configuration = PlayerConfiguration(audioSink: "fakesink sync=true", videoSink: "fakesink sync=true")
            configuration.preferences.audioLanguages = audioLanguages
            player = try Player(configuration: configuration)
            let items = names.map { QueueItem(uri: TestMedia.directory.appendingPathComponent($0).absoluteString, title: $0) }
            controller = QueueSequencer(player: player, queue: PlayQueue(items, repeatMode: repeatMode))
            controller.addObserver { [unowned self] event, item in self.events.append((event, item)) }
        }

        var itemChanges: [Int?] { events.compactMap { if case .itemChanged(let i, _, _) = $0.event { i } else { nil } } }
        var reloads: Int { events.filter { $0.event == .status(.unknown) }.count }
        var finished: (Int, Int)? { events.lazy.compactMap { if case .finished(let p, let f, _) = $0.event { (p, f) } else { nil } }.first }

        func wait(_ timeout: Double = 20, until condition: () -> Bool) -> Bool { GLibMainLoop.run(until: condition, timeout: timeout) }

        /// What a failed wait prints: the player's state and every event so far.
        var state: String { "status \(player.status), \(player.timeControlStatus), events \(events.map(\.event))" }

        func close() {
            controller.detach()
            player.shutdown()
        }
    }

    override func setUp() { TestMedia.ensureGenerated() }

    /// Previous, as in every player: more than 3 s in it restarts the item (a seek, no reload);
    /// near the start it goes to the item before.
    func testPreviousRestartsAfterThreeSecondsAndGoesBackBefore() throws {
        try MainActor.assumeIsolated {
            let h = try Harness(["clip2s.mp4", "color10s.mp4"])
            defer { h.close() }
            let ids = h.controller.queue.items.map(\.id)
            h.controller.play(ids[1])
            XCTAssertTrue(h.wait { h.player.timeControlStatus == .playing }, h.state)
            h.player.seek(to: 5, mode: .accurate)
            XCTAssertTrue(h.wait { h.player.timeControlStatus == .playing && h.player.position >= 5 }, h.state)
            h.controller.previous()
            XCTAssertTrue(h.wait { h.player.timeControlStatus == .playing && h.player.position < 1 }, "restarted: \(h.player.position); \(h.state)")
            XCTAssertEqual(h.itemChanges, [1], "the same item, not reloaded")
            XCTAssertEqual(h.reloads, 1)
            h.controller.previous()
            XCTAssertTrue(h.wait { h.itemChanges == [1, 0] && h.player.timeControlStatus == .playing }, h.state)
            XCTAssertTrue((h.player.currentURI ?? "").hasSuffix("clip2s.mp4"))
        }
    }

    /// A switch playbin3 cannot make gaplessly is made at the end instead: from audio+video to
    /// audio only (it used to stall 3 s at the end and leak the pipeline), and to a file that does
    /// not open (its error used to cut the item before it short). Each item plays in full.
    func testUnsuitableNextItemsAreLoadedAtTheEndAndNothingIsCutShort() throws {
        try MainActor.assumeIsolated {
            let h = try Harness(["clip2s.mp4", "tone3s.m4a", "notmedia.mp4", "gapless-00.mp4"])
            defer { h.close() }
            var times: [(event: String, item: Int?, at: Date)] = []
            h.controller.addObserver { event, item in
                switch event {
                case .status(.readyToPlay): times.append(("ready", item, Date()))
                case .playedToEnd: times.append(("end", item, Date()))
                default: break
                }
            }
            h.controller.play()
            XCTAssertTrue(h.wait(30) { h.finished != nil }, h.state)
            func played(_ i: Int) -> Double? {
                guard let start = times.first(where: { $0.event == "ready" && $0.item == i })?.at,
                      let end = times.first(where: { $0.event == "end" && $0.item == i })?.at else { return nil }
                return end.timeIntervalSince(start)
            }
            let clip = try XCTUnwrap(played(0)), tone = try XCTUnwrap(played(1))
            XCTAssertEqual(clip, 2.0, accuracy: 0.5, "clip2s ends on time, no stall at its end")
            XCTAssertEqual(tone, 3.0, accuracy: 0.5, "tone3s plays in full although the next item is broken")
            XCTAssertEqual(h.itemChanges, [0, 1, 2, 3])
            XCTAssertEqual(h.finished?.0, 3)
            XCTAssertEqual(h.finished?.1, 1)
        }
    }

    func testLoadTogglePlayAndNoReloadOfTheCurrentItem() throws {
        try MainActor.assumeIsolated {
            let h = try Harness(["gapless-00.mp4", "color10s.mp4", "clip2s.mp4"])
            defer { h.close() }
            let ids = h.controller.queue.items.map(\.id)
            h.controller.load(ids[1])
            XCTAssertTrue(h.wait { h.player.status == .readyToPlay }, "load prerolls; \(h.state)")
            XCTAssertEqual(h.player.timeControlStatus, .paused, "load keeps it paused")
            XCTAssertEqual(h.itemChanges, [1])
            XCTAssertEqual(h.controller.rows.map(\.isCurrent), [false, true, false])

            h.controller.load(ids[1])
            h.controller.play(ids[1])
            XCTAssertTrue(h.wait { h.player.timeControlStatus == .playing }, h.state)
            XCTAssertEqual(h.itemChanges, [1], "asking for the current item does not reload it")
            XCTAssertEqual(h.reloads, 1)

            h.controller.toggle(ids[1])
            XCTAssertTrue(h.wait { h.player.timeControlStatus == .paused }, h.state)
            h.controller.toggle(ids[1])
            XCTAssertTrue(h.wait { h.player.timeControlStatus == .playing }, h.state)
            XCTAssertEqual(h.itemChanges, [1], "toggling the current item pauses and resumes it")

            h.controller.toggle(ids[2])
            XCTAssertTrue(h.wait { h.player.timeControlStatus == .playing && h.itemChanges.count == 2 }, h.state)
            XCTAssertEqual(h.itemChanges, [1, 2], "toggling another item plays it")
            XCTAssertEqual(h.controller.currentIndex, 2)

            // Reordering keeps identity: the playing item moves, its events follow its new index.
            h.controller.move(ids[2], to: 0)
            XCTAssertEqual(h.controller.currentIndex, 0)
            XCTAssertEqual(h.controller.current?.id, ids[2])
        }
    }

    /// The user's audio choice on one item holds on the next in a gapless queue: playbin3 1.22
    /// takes no select-streams for a switched-to item, so that item is loaded at the end instead
    /// and plays the chosen language (tracks-1/-2.mp4: English then French audio each).
    func testAnAudioChoiceIsKeptOnTheNextItemOfAGaplessQueue() throws {
        try MainActor.assumeIsolated {
            let h = try Harness(["tracks-1.mp4", "tracks-2.mp4"])
            defer { h.close() }
            @MainActor func audio() -> [String?] {
                h.player.tracks.filter { $0.kind == .audio && h.player.selectedStreamIDs.contains($0.id) }.map(\.language)
            }
            h.controller.play()
            XCTAssertTrue(h.wait { h.player.timeControlStatus == .playing && audio() == ["en"] }, h.state)
            XCTAssertFalse(h.player.trackChoiceNeedsLoad, "playbin3's own choice")
            h.player.cycleAudioTrack()
            XCTAssertTrue(h.wait(5) { audio() == ["fr"] }, h.state)
            XCTAssertTrue(h.player.trackChoiceNeedsLoad)
            XCTAssertTrue(h.wait { h.itemChanges == [0, 1] && h.player.status == .readyToPlay }, h.state)
            XCTAssertTrue(h.wait(5) { audio() == ["fr"] }, "French on the next item too: \(audio()); \(h.state)")
            XCTAssertEqual(h.reloads, 2, "the next item was loaded, not switched into")
            XCTAssertTrue(h.wait { h.finished != nil }, h.state)
            XCTAssertEqual(h.finished?.0, 2)
        }
    }

    /// `--alang` with a choice to make on the item (two audio tracks) makes it on the next item
    /// too: that item is loaded, even when the preferred language is playbin3's own first choice
    /// here (English), since the next item's first track could be another language.
    func testPreferredLanguagesWithAChoiceToMakeLoadTheNextItem() throws {
        try MainActor.assumeIsolated {
            let h = try Harness(["tracks-1.mp4", "tracks-2.mp4"], audioLanguages: ["en"])
            defer { h.close() }
            h.controller.play()
            XCTAssertTrue(h.wait { h.player.timeControlStatus == .playing && h.player.trackChoiceNeedsLoad }, h.state)
            XCTAssertTrue(h.wait { h.finished != nil }, h.state)
            XCTAssertEqual(h.itemChanges, [0, 1])
            XCTAssertEqual(h.reloads, 2, "the next item was loaded, not switched into")
        }
    }

    func testGaplessQueueReportsEveryIndexWithoutReloading() throws {
        try MainActor.assumeIsolated {
            let names = (0..<5).map { String(format: "gapless-%02d.mp4", $0) }
            let h = try Harness(names)
            defer { h.close() }
            h.controller.play()
            XCTAssertTrue(h.wait(30) { h.finished != nil }, h.state)
            XCTAssertEqual(h.itemChanges, [0, 1, 2, 3, 4])
            XCTAssertEqual(h.reloads, 1, "one load, then gapless switches only")
            XCTAssertEqual(h.finished?.0, 5)
            XCTAssertEqual(h.finished?.1, 0)
            XCTAssertTrue(h.controller.queue.items.allSatisfy { $0.state == .played })
            XCTAssertTrue(h.controller.queue.items.allSatisfy { abs(($0.duration ?? 0) - 1) < 0.1 }, "durations learnt for the panel")
            // Every event after an item change is attributed to that item.
            var current: Int?
            for (event, item) in h.events {
                if case .itemChanged(let i, _, _) = event { current = i }
                if case .finished = event { XCTAssertNil(item); continue }
                XCTAssertEqual(item, current, "\(event)")
            }
        }
    }

    func testRepeatOneReplaysTheItemGaplessly() throws {
        try MainActor.assumeIsolated {
            let h = try Harness(["gapless-00.mp4", "gapless-01.mp4"], repeatMode: .one)
            defer { h.close() }
            h.controller.play()
            XCTAssertTrue(h.wait(20) { h.itemChanges.count >= 4 }, h.state)
            XCTAssertEqual(Array(h.itemChanges.prefix(4)), [0, 0, 0, 0])
            XCTAssertEqual(h.reloads, 1)
            h.controller.next()
            XCTAssertTrue(h.wait { h.itemChanges.last == 1 }, "the user's next leaves a repeated item; \(h.state)")
        }
    }

    func testFailedItemIsMarkedAndTheQueueMovesOn() throws {
        try MainActor.assumeIsolated {
            let h = try Harness(["gapless-00.mp4", "no-such-file.mp4", "notmedia.mp4", "gapless-01.mp4"])
            defer { h.close() }
            h.controller.play()
            XCTAssertTrue(h.wait(30) { h.finished != nil }, h.state)
            XCTAssertEqual(h.itemChanges, [0, 1, 2, 3])
            XCTAssertEqual(h.finished?.0, 2)
            XCTAssertEqual(h.finished?.1, 2)
            let rows = h.controller.rows
            XCTAssertEqual(rows.map(\.state.name), ["played", "failed", "failed", "played"])
            XCTAssertEqual(rows[1].failureMessage, "The file does not exist.")
            XCTAssertNotNil(rows[2].failureMessage)
            XCTAssertNil(rows[0].failureMessage)
            let errorItems = h.events.compactMap { if case .error = $0.event { $0.item } else { nil } }
            XCTAssertEqual(errorItems, [1, 2])
        }
    }
}
