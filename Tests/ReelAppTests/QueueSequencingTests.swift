@testable import ReelApp
import Foundation
import ReelCore
import ReelGLib
import ReelTestSupport
import XCTest

/// Queue rules on a scripted engine (`FakeEngine`), in milliseconds: which item is loaded,
/// prepared and reported, what a failure, a gapless switch, previous and quitting do. The
/// real-pipeline tests (QueueControllerTests, QueuePlaybackTests) cover the same rules on playbin3.
final class QueueSequencingTests: XCTestCase {
    private static let uris = (0..<3).map { "https://media.example.invalid/clip\($0).mp4" }

    @MainActor
    private static func make(_ count: Int = 3, repeatMode: RepeatMode = .off) -> (QueueController, FakeEngine, Recorder) {
        let engine = FakeEngine()
        let controller = QueueController(engine: engine, queue: PlayQueue(Self.uris.prefix(count).map { QueueItem(uri: $0) }, repeatMode: repeatMode))
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
            let controller = QueueController(engine: engine, queue: PlayQueue([QueueItem(uri: same), QueueItem(uri: same), QueueItem(uri: Self.uris[1])]))
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
            let (controller, engine, rec) = Self.make(2)
            controller.play()
            engine.becomeReady()
            engine.switchToNext()
            engine.fail(PlaybackError(kind: .corrupt, message: "bad"))
            XCTAssertTrue(GLibMainLoop.run(until: { rec.finished != nil }, timeout: 2))
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
}
