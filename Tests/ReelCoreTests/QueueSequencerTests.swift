import Foundation
@testable import ReelCore
import ReelTestSupport
import XCTest

/// Queue rules on a scripted engine (`FakeEngine`), in milliseconds: which item is loaded,
/// prepared and reported, what a failure, a gapless switch, previous and quitting do. The
/// real-pipeline tests (ReelAppTests' QueueSequencerPlaybackTests, QueuePlaybackTests) cover the same rules on playbin3.
final class QueueSequencerTests: XCTestCase {
    private static let uris = (0..<3).map { "https://media.example.invalid/clip\($0).mp4" }

    @MainActor
    private static func make(_ count: Int = 3, repeatMode: RepeatMode = .off, clock: ManualClock = ManualClock()) -> (QueueSequencer, FakeEngine, Recorder) {
        let engine = FakeEngine()
        let controller = QueueSequencer(engine: engine, queue: PlayQueue(Self.uris.prefix(count).map { QueueItem(uri: $0) }, repeatMode: repeatMode), clock: clock)
        let recorder = Recorder()
        controller.addObserver { event, item in recorder.events.append((event, item)) }
        return (controller, engine, recorder)
    }

    @MainActor
    private final class Recorder {
        var events: [(PlayerEvent, Int?)] = []
        var changes: [Int?] { events.compactMap { if case .itemChanged(let i, _, _) = $0.0 { i } else { nil } } }
        var finished: (Int, Int, EndReason)? {
            events.lazy.compactMap { if case .finished(let p, let f, let r) = $0.0 { (p, f, r) } else { nil } }.first
        }
    }

    func testAtTheEndTheNextItemIsLoadedAndEveryEventNamesItsIndex() {
        onMain {
            let (controller, engine, rec) = Self.make()
            controller.play()
            XCTAssertEqual(engine.loads.map(\.uri), [Self.uris[0]])
            XCTAssertEqual(engine.loads.first?.id, controller.queue.items[0].id, "the queue item's id is the engine item's")
            engine.becomeReady()
            XCTAssertEqual(engine.nextItem?.id, controller.queue.items[1].id, "the next item is prepared once the current is ready")
            engine.prepareNext(item: nil)  // as if about-to-finish came too late for it
            engine.reachEnd()
            XCTAssertEqual(engine.loads.map(\.uri), [Self.uris[0], Self.uris[1]], "loaded at the end instead")
            XCTAssertEqual(controller.currentIndex, 1)
            XCTAssertEqual(rec.changes, [0, 1])
            XCTAssertEqual(rec.events.filter { $0.0 == .playedToEnd }.map(\.1), [0])
        }
    }

    /// playbin3 1.22 cannot carry a track choice into a gapless switch: while the current item
    /// plays tracks of its own choosing, nothing is prepared (the next is loaded at the end, where
    /// the choice is applied); back to the defaults, the switch is prepared again.
    func testATrackChoiceOfItsOwnHoldsTheGaplessSwitchBack() {
        onMain {
            let (controller, engine, _) = Self.make()
            controller.play()
            engine.becomeReady()
            XCTAssertEqual(engine.nextItem?.id, controller.queue.items[1].id)
            engine.chooseTracks(needingLoad: true)
            XCTAssertNil(engine.nextItem, "nothing to switch to while the choice is the item's own")
            engine.reachEnd()
            XCTAssertEqual(engine.loads.map(\.uri), [Self.uris[0], Self.uris[1]], "loaded at the end instead")
            engine.becomeReady()
            engine.chooseTracks(needingLoad: false)
            XCTAssertEqual(engine.nextItem?.id, controller.queue.items[2].id, "the defaults again: switched gaplessly")
        }
    }

    func testAGaplessSwitchMovesTheQueueWithoutALoadAndPreparesTheFollowingItem() {
        onMain {
            let (controller, engine, rec) = Self.make()
            controller.play()
            engine.becomeReady()
            XCTAssertTrue(engine.switchToNext())
            XCTAssertEqual(engine.loads.count, 1, "no reload: the engine switched")
            XCTAssertEqual(controller.currentIndex, 1)
            XCTAssertEqual(rec.changes, [0, 1])
            XCTAssertEqual(engine.nextItem?.id, controller.queue.items[2].id, "the one after is prepared next")
            XCTAssertEqual(controller.queue.items[0].state, .played)
            XCTAssertTrue(engine.switchToNext())
            XCTAssertEqual(controller.currentIndex, 2)
            XCTAssertEqual(rec.changes, [0, 1, 2])
        }
    }

    func testTheSameFileTwiceIsToldApartByTheItemsIDNotItsURI() {
        onMain {
            let engine = FakeEngine()
            let same = Self.uris[0]
            let controller = QueueSequencer(engine: engine, queue: PlayQueue([QueueItem(uri: same), QueueItem(uri: same), QueueItem(uri: Self.uris[1])]), clock: ManualClock())
            var changes: [Int?] = []
            controller.addObserver { event, item in if case .itemChanged = event { changes.append(item) } }
            controller.play()
            engine.becomeReady()
            XCTAssertEqual(engine.nextItem?.id, controller.queue.items[1].id)
            engine.switchToNext()
            XCTAssertEqual(controller.currentIndex, 1, "the second entry, though its URI is the first's")
            XCTAssertEqual(engine.nextItem?.id, controller.queue.items[2].id)
            engine.switchToNext()
            XCTAssertEqual(changes, [0, 1, 2])
        }
    }

    func testAFailedItemIsMarkedAndTheNextOneLoads() {
        onMain {
            let (controller, engine, rec) = Self.make()
            controller.play()
            let error = PlaybackError(kind: .notFound, message: "gone", httpStatus: 404, uri: Self.uris[0])
            engine.fail(error)
            XCTAssertEqual(controller.queue.items[0].state, .failed(error))
            XCTAssertEqual(controller.failedCount, 1)
            XCTAssertEqual(engine.loads.map(\.uri), [Self.uris[0], Self.uris[1]])
            XCTAssertEqual(rec.changes, [0, 1])
        }
    }

    func testPreviousRestartsTheFirstItemAndAfterThreeSecondsAnyItem() {
        onMain {
            let (controller, engine, _) = Self.make()
            controller.play()
            engine.becomeReady()
            engine.position = 1
            XCTAssertTrue(controller.previous())
            XCTAssertEqual(engine.seeks, [0], "the first item restarts (as in the window, the socket and MPRIS)")
            XCTAssertEqual(engine.loads.count, 1)
            engine.switchToNext()
            engine.position = 5
            XCTAssertTrue(controller.previous())
            XCTAssertEqual(engine.seeks, [0, 0], "more than 3 s in: the item restarts")
            engine.position = 1
            XCTAssertTrue(controller.previous())
            XCTAssertEqual(engine.loads.map(\.uri), [Self.uris[0], Self.uris[0]], "within 3 s: the item before")
            XCTAssertEqual(controller.currentIndex, 0)
        }
    }

    func testTheQueueFinishesWithItsReason() {
        onMain {
            let clock = ManualClock()
            let (controller, engine, rec) = Self.make(2, clock: clock)
            controller.play()
            engine.becomeReady()
            engine.switchToNext()
            engine.fail(PlaybackError(kind: .corrupt, message: "bad"))
            XCTAssertNil(rec.finished, "after everyone has seen the last item's failure")
            clock.advance()
            XCTAssertEqual(rec.finished?.0, 1)
            XCTAssertEqual(rec.finished?.1, 1)
            XCTAssertEqual(rec.finished?.2, .error, "the last item failed")

            let (quitting, quitEngine, quitRec) = Self.make(2)
            quitting.play()
            quitEngine.becomeReady()
            quitting.userQuit()
            XCTAssertEqual(quitRec.finished?.2, .userExited)
            quitting.userQuit()
            XCTAssertEqual(quitRec.events.filter { if case .finished = $0.0 { true } else { false } }.count, 1, "said once")
        }
    }

    /// Issue 51: a big list plays while the rest of it is read. The end of its first entries is
    /// no end of the queue while the rest is coming: nothing finishes, nothing wraps (repeat all),
    /// nothing is prepared after the last; the rest's arrival goes on from there.
    func testTheEndOfAListsFirstEntriesWaitsForTheRestOfIt() {
        onMain {
            for repeatMode in [RepeatMode.off, .all] {
                let clock = ManualClock()
                let (controller, engine, rec) = Self.make(2, repeatMode: repeatMode, clock: clock)
                controller.expectTail()
                controller.play()
                engine.becomeReady()
                engine.reachEnd()
                XCTAssertEqual(engine.loads.map(\.uri), Array(Self.uris.prefix(2)))
                engine.becomeReady()
                XCTAssertNil(engine.nextItem, "\(repeatMode): nothing after the last entry read so far")
                let error = PlaybackError(kind: .notFound, message: "gone", uri: Self.uris[1])
                engine.fail(error)
                clock.advance()
                XCTAssertNil(rec.finished, "\(repeatMode): the queue has not ended")
                XCTAssertEqual(engine.loads.count, 2, "\(repeatMode): no wrap to the first item")
                XCTAssertTrue(controller.awaitsTail)
                controller.appendTail([QueueItem(uri: Self.uris[2])])
                XCTAssertFalse(controller.awaitsTail)
                XCTAssertEqual(controller.queue.items[1].state, .failed(error), "the held outcome is the item's")
                XCTAssertEqual(engine.loads.map(\.uri), Self.uris, "\(repeatMode): on to the rest")
                XCTAssertEqual(rec.changes, [0, 1, 2])
                engine.becomeReady()
                engine.reachEnd()
                clock.advance()
                if repeatMode == .off {
                    XCTAssertEqual(rec.finished.map { [$0.0, $0.1] }, [2, 1], "played 2, failed 1")
                } else {
                    XCTAssertNil(rec.finished)
                    XCTAssertEqual(engine.loads.last?.uri, Self.uris[0], "the whole list repeats")
                }
            }
        }
    }

    /// The rest comes in slices (one a main-loop turn): each goes on from a held end, and the end
    /// of a slice that is not the last waits again.
    func testTheRestInSlicesGoesOnFromEachHeldEnd() {
        onMain {
            let clock = ManualClock()
            let (controller, engine, rec) = Self.make(1, clock: clock)
            controller.expectTail()
            controller.play()
            engine.becomeReady()
            engine.reachEnd()
            controller.appendTail([QueueItem(uri: Self.uris[1])], complete: false)
            XCTAssertTrue(controller.awaitsTail, "more is coming")
            XCTAssertEqual(engine.loads.map(\.uri), Array(Self.uris.prefix(2)))
            engine.becomeReady()
            engine.reachEnd()
            clock.advance()
            XCTAssertNil(rec.finished, "the end of a slice is no end")
            controller.appendTail([QueueItem(uri: Self.uris[2])], complete: true)
            XCTAssertFalse(controller.awaitsTail)
            XCTAssertEqual(engine.loads.map(\.uri), Self.uris)
            engine.becomeReady()
            engine.reachEnd()
            clock.advance()
            XCTAssertEqual(rec.finished?.0, 3)
        }
    }

    /// Issue 56: `playlist-clear` while a big list's rest was still being read was undone when
    /// the rest arrived. The rest is dropped; the queue is what the clear left.
    func testAClearWhileTheRestIsReadDropsTheRest() {
        onMain {
            let clock = ManualClock()
            let (controller, engine, _) = Self.make(1, clock: clock)
            controller.expectTail()
            controller.play()
            engine.becomeReady()
            controller.clearAllButCurrent()
            XCTAssertFalse(controller.awaitsTail)
            controller.appendTail([QueueItem(uri: Self.uris[1])], complete: false)
            controller.appendTail([QueueItem(uri: Self.uris[2])], complete: true)
            XCTAssertEqual(controller.queue.count, 1, "the clear stands")
            controller.append([QueueItem(uri: Self.uris[2])])
            XCTAssertEqual(controller.queue.count, 2, "what is added after it is added")
        }
    }

    /// The rest of the list arriving before the first entries are played: appended, and the
    /// next item is prepared after the one playing as for any append.
    func testARestThatComesEarlyIsAnAppend() {
        onMain {
            let (controller, engine, rec) = Self.make(1)
            controller.expectTail()
            controller.play()
            engine.becomeReady()
            XCTAssertNil(engine.nextItem)
            controller.appendTail([QueueItem(uri: Self.uris[1])])
            XCTAssertEqual(engine.nextItem?.uri, Self.uris[1], "prepared for the gapless switch")
            engine.reachEnd()
            XCTAssertEqual(rec.changes.last, 1)
        }
    }

}

/// Retries on the fake engine with a manual clock: the back-off is seen without waiting for it.
final class QueueSequencerRetryTests: XCTestCase {
    private static let uris = (0..<2).map { "https://media.example.invalid/live\($0).mp4" }
    private static let reset = PlaybackError(kind: .network, message: "connection reset")

    @MainActor
    private static func make() -> (QueueSequencer, FakeEngine, ManualClock, () -> [PlayerEvent]) {
        let engine = FakeEngine(), clock = ManualClock()
        let sequencer = QueueSequencer(engine: engine, queue: PlayQueue(uris.map { QueueItem(uri: $0) }), clock: clock)
        sequencer.retryPolicy = RetryPolicy(maxRetries: 2, baseDelay: 0.5, maxDelay: 8, multiplier: 2)
        var events: [PlayerEvent] = []
        sequencer.addObserver { event, _ in events.append(event) }
        return (sequencer, engine, clock, { events })
    }

    func testANetworkFailureIsRetriedAfterItsBackOffAndResumesWhereItWas() {
        onMain {
            let (sequencer, engine, clock, events) = Self.make()
            sequencer.play()
            engine.becomeReady()
            engine.position = 42
            engine.fail(Self.reset)
            XCTAssertEqual(clock.pendingDelays, [0.5], "the first retry waits the policy's base delay")
            XCTAssertEqual(engine.loads.count, 1, "not before its time")
            clock.advance(by: 0.49)
            XCTAssertEqual(engine.loads.count, 1)
            clock.advance(by: 0.01)
            XCTAssertEqual(engine.loads.map(\.attempt), [0, 1], "the same item again, as its first retry")
            XCTAssertEqual(engine.loads.map(\.id), [sequencer.queue.items[0].id, sequencer.queue.items[0].id])
            engine.becomeReady()
            XCTAssertEqual(engine.seeks, [42], "back where it had got to")
            let changes = events().filter { if case .itemChanged = $0 { true } else { false } }
            XCTAssertEqual(changes.count, 1, "a retry is not a new item")
            XCTAssertTrue(events().contains(.retrying(attempt: 1, delay: 0.5, error: Self.reset)))
            XCTAssertFalse(events().contains(.error(Self.reset)), "a failure that is retried is not reported as the item's")
            XCTAssertEqual(sequencer.failedCount, 0)
        }
    }

    func testRetriesBackOffAndTheLastFailureCountsAndTheQueueGoesOn() {
        onMain {
            let (sequencer, engine, clock, events) = Self.make()
            sequencer.play()
            engine.fail(Self.reset)
            clock.advance(by: 0.5)
            engine.fail(Self.reset)
            XCTAssertEqual(clock.pendingDelays, [1], "doubled")
            clock.advance(by: 1)
            XCTAssertEqual(engine.loads.map(\.attempt), [0, 1, 2])
            engine.fail(Self.reset)
            XCTAssertEqual(clock.pendingDelays, [], "no third retry")
            XCTAssertEqual(sequencer.failedCount, 1)
            XCTAssertEqual(sequencer.queue.items[0].state, .failed(Self.reset))
            XCTAssertEqual(engine.loads.last?.uri, Self.uris[1], "the queue went on")
            XCTAssertEqual(engine.loads.last?.attempt, 0)
            XCTAssertEqual(events().filter { if case .retrying = $0 { true } else { false } }.count, 2)
        }
    }

    func testAUsersNextVoidsARetryPlannedBeforeIt() {
        onMain {
            let (sequencer, engine, clock, _) = Self.make()
            sequencer.play()
            engine.fail(Self.reset)
            sequencer.next()
            XCTAssertEqual(engine.loads.map(\.uri), [Self.uris[0], Self.uris[1]])
            clock.advance(by: 10)
            XCTAssertEqual(engine.loads.map(\.uri), [Self.uris[0], Self.uris[1]], "the planned retry did not reload the first item")
        }
    }

    func testNotFoundAndLocalFilesAreNotRetried() {
        onMain {
            let (sequencer, engine, clock, _) = Self.make()
            sequencer.play()
            engine.fail(PlaybackError(kind: .notFound, message: "gone", httpStatus: 404))
            XCTAssertEqual(clock.pendingDelays, [])
            XCTAssertEqual(engine.loads.last?.uri, Self.uris[1])

            let local = FakeEngine()
            let localSequencer = QueueSequencer(engine: local, queue: PlayQueue([QueueItem(uri: "/media/a.mp4"), QueueItem(uri: "/media/b.mp4")]),
                                                clock: clock)
            localSequencer.play()
            local.fail(Self.reset)
            XCTAssertEqual(local.loads.map(\.uri), ["/media/a.mp4", "/media/b.mp4"], "a local file fails at once")
        }
    }
}

/// The gapless advisor and retry scheduler as tables: pure decisions, no engine.
final class GaplessAdvisorTests: XCTestCase {
    private let net = [QueueItem(uri: "https://a.example/1.mp4"), QueueItem(uri: "https://a.example/2.mp4")]
    private let local = [QueueItem(uri: "/m/1.mp4"), QueueItem(uri: "/m/2.mp4"), QueueItem(uri: "/m/3.mp3")]

    func testTheAdviceForEachPairOfItems() {
        let av = StreamLayout(video: true, audio: true), audio = StreamLayout(video: false, audio: true)
        var probed = GaplessAdvisor()
        probed.probed(local[0].id, layout: av, stillQueued: true)
        probed.probed(local[1].id, layout: av, stillQueued: true)
        probed.probed(local[2].id, layout: audio, stillQueued: true)
        var broken = GaplessAdvisor()
        broken.probed(local[0].id, layout: av, stillQueued: true)
        broken.probed(local[1].id, layout: nil, stillQueued: true)
        let headered = QueueItem(uri: "https://a.example/3.mp4", options: [PlaylistOptions.header: ["X-Key: v"]])
        let rows: [(String, GaplessAdvisor, Bool, QueueItem?, QueueItem?, StreamLayout?, GaplessAdvisor.Advice)] = [
            ("off", probed, false, net[0], net[1], nil, .none),
            ("no next", probed, true, net[0], nil, nil, .none),
            ("network next: prepared at once", GaplessAdvisor(), true, net[0], net[1], nil, .prepare(net[1].id)),
            ("headers on the next", GaplessAdvisor(), true, net[0], headered, nil, .none),
            ("an HLS next: loaded at the end", GaplessAdvisor(), true, net[0], QueueItem(uri: "https://a.example/live/master.m3u8"), nil, .none),
            ("a local HLS next too", probed, true, local[0], QueueItem(uri: "/media/hls/index.m3u8"), nil, .none),
            ("headers on the current", GaplessAdvisor(), true, headered, net[1], nil, .none),
            ("local pair not probed yet", GaplessAdvisor(), true, local[0], local[1], nil, .probe([local[0].id, local[1].id])),
            ("local pair, same layout", probed, true, local[0], local[1], nil, .prepare(local[1].id)),
            ("video to audio only", probed, true, local[1], local[2], nil, .none),
            ("next does not open", broken, true, local[0], local[1], nil, .none),
            ("network current not ready", probed, true, net[0], local[1], nil, .probe([])),
            ("network current ready, same layout", probed, true, net[0], local[1], av, .prepare(local[1].id)),
            ("network current ready, other layout", probed, true, net[0], local[1], audio, .none),
        ]
        for (name, advisor, enabled, current, next, engineLayout, expected) in rows {
            XCTAssertEqual(advisor.advise(enabled: enabled, current: current, next: next, engineLayout: engineLayout), expected, name)
            // A track choice of the current item's own is never switched into (a load applies it).
            XCTAssertEqual(advisor.advise(enabled: enabled, current: current, next: next, engineLayout: engineLayout,
                                          trackChoiceNeedsLoad: true), .none, "\(name), with a track choice")
        }
    }

    func testItemsBeingProbedAreNotProbedTwiceAndRemovedItemsAreNotKept() {
        var advisor = GaplessAdvisor()
        advisor.probeStarted([local[0].id])
        XCTAssertEqual(advisor.advise(enabled: true, current: local[0], next: local[1], engineLayout: nil), .probe([local[1].id]))
        advisor.probed(local[0].id, layout: StreamLayout(video: true, audio: true), stillQueued: false)
        XCTAssertTrue(advisor.probing.isEmpty)
        XCTAssertFalse(advisor.layouts.keys.contains(local[0].id), "removed meanwhile: not kept")
    }
}

final class RetrySchedulerTests: XCTestCase {
    private let a = QueueItem.ID(), b = QueueItem.ID()
    private let reset = PlaybackError(kind: .network, message: "reset")

    func testPlansAndTheirResumePositions() throws {
        var s = RetryScheduler(policy: RetryPolicy(maxRetries: 3, baseDelay: 1, maxDelay: 3, multiplier: 2))
        let first = try XCTUnwrap(s.plan(after: reset, item: a, isNetworkItem: true, position: 30, seekable: true, live: false))
        XCTAssertEqual([first.attempt, Int(first.delay)], [1, 1])
        XCTAssertEqual(s.resumeAt, 30)
        // Failed again before it got anywhere: the earlier resume point stands.
        let second = try XCTUnwrap(s.plan(after: reset, item: a, isNetworkItem: true, position: 0.5, seekable: true, live: false))
        XCTAssertEqual([second.attempt, Int(second.delay)], [2, 2])
        XCTAssertEqual(s.takeResumePosition(for: a), 30)
        XCTAssertNil(s.takeResumePosition(for: a), "once")
        let third = try XCTUnwrap(s.plan(after: reset, item: a, isNetworkItem: true, position: 5, seekable: true, live: true))
        XCTAssertEqual([third.attempt, Int(third.delay)], [3, 3], "capped at maxDelay")
        XCTAssertNil(s.resumeAt, "live: no resume position")
        XCTAssertNil(s.plan(after: reset, item: a, isNetworkItem: true, position: 5, seekable: true, live: false), "retries used up")
        XCTAssertTrue(s.isStillWanted(third))
        s.itemLoaded()
        XCTAssertFalse(s.isStillWanted(third), "another load voids it")
        XCTAssertEqual(s.nextAttempt(after: reset, item: a, isNetworkItem: true), 1, "counts start again")
        XCTAssertNil(s.nextAttempt(after: reset, item: b, isNetworkItem: false), "a local file is never retried")
        XCTAssertNil(s.nextAttempt(after: PlaybackError(kind: .notAuthorized, message: "401"), item: b, isNetworkItem: true))
    }
}
