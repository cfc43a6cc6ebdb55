import Foundation
import ReelCore
@testable import ReelEngine
import ReelGLib
import ReelTestSupport
import XCTest

/// The preroll watchdog alone on a stand-in host, with its real timer (GLib's main loop) and its
/// real probe (GstDiscoverer on the test media): what it asks the player for, in what order.
/// (In a real pipeline: PrerollWatchdogTests, BadInputTests.)
final class PrerollWatchdogFeatureTests: XCTestCase {
    @MainActor
    private static func watchdog(timeout: Double = 0.2) -> PrerollWatchdog {
        configured(PrerollWatchdog()) { $0.localPrerollTimeout = timeout }
    }

    /// A watchdog armed by the load of one of the test media.
    @MainActor
    private static func loading(_ media: String) -> (FeatureHostStandIn, PrerollWatchdog) {
        TestMedia.ensureGenerated()
        let host = FeatureHostStandIn(), watchdog = Self.watchdog()
        host.currentItem = PlaybackItem(uri: TestMedia.url(media).absoluteString)
        watchdog.itemStarted(host.currentItem!, switched: false, host: host)
        return (host, watchdog)
    }

    func testAGoodFileThatDoesNotPrerollIsStartedAgainOnceThenGivenTimeThenFails() {
        onMain {
            let (host, watchdog) = Self.loading("clip2s.mp4")
            XCTAssertTrue(GLibMainLoop.run(until: { host.calls.contains("restart") }, timeout: 20), "\(host.calls)")
            XCTAssertEqual(host.calls, ["no-picture", "restart"], "other features are asked first; the probe opened it: a fresh pipeline")
            // The player restarts the load on a fresh pipeline, which tells the features.
            watchdog.loadRestarted(nextHanded: nil, host: host)
            XCTAssertTrue(GLibMainLoop.run(until: { host.hasFailed }, timeout: 30), "\(host.calls)")
            XCTAssertEqual(watchdog.restarts, PrerollVerdict.maximumRestarts)
            XCTAssertEqual(watchdog.extensions, PrerollVerdict.maximumExtensions, "more time, as often as the verdict allows")
            XCTAssertEqual(host.calls.filter { $0 == "restart" }.count, 1)
            XCTAssertEqual(host.failure?.kind, .corrupt, "\(String(describing: host.failure))")
        }
    }

    func testAFileTheProbeCannotOpenFailsWithTheProbesError() {
        onMain {
            let (host, _) = Self.loading("corrupt.mp4")
            XCTAssertTrue(GLibMainLoop.run(until: { host.hasFailed }, timeout: 20), "\(host.calls)")
            XCTAssertFalse(host.calls.contains("restart"), "a damaged file is not started again: \(host.calls)")
        }
    }

    func testPrerollingInTimeOrAPictureTakenElsewhereStopsIt() {
        onMain {
            let host = FeatureHostStandIn(), watchdog = Self.watchdog(timeout: 0.1)
            watchdog.itemStarted(host.currentItem!, switched: false, host: host)
            watchdog.readying(host: host)  // prerolled
            GLibMainLoop.run(until: { false }, timeout: 0.4)
            XCTAssertEqual(host.calls, [], "a prerolled item is left alone")

            host.noPictureTaken = true  // a hardware decoder falls back instead
            watchdog.itemStarted(PlaybackItem(uri: "file:///next.mkv"), switched: false, host: host)
            XCTAssertTrue(GLibMainLoop.run(until: { !host.calls.isEmpty }, timeout: 5))
            GLibMainLoop.run(until: { false }, timeout: 0.3)
            XCTAssertEqual(host.calls, ["no-picture"])
            XCTAssertFalse(host.hasFailed)

            host.clear()
            watchdog.itemStarted(PlaybackItem(uri: "file:///gapless.mkv"), switched: true, host: host)
            GLibMainLoop.run(until: { false }, timeout: 0.3)
            XCTAssertEqual(host.calls, [], "a gapless switch streams already: no watch")
        }
    }
}

/// The held-back next item alone: kept until the loaded item's own stream started.
final class HeldBackNextURIFeatureTests: XCTestCase {
    func testTheNextItemWaitsForTheLoadedItemsOwnStreamStart() {
        onMain {
            let host = FeatureHostStandIn(), holder = HeldBackNextURI()
            let next = PlaybackItem(uri: "file:///next.mp4")
            host.awaitingOwnStreamStart = true
            holder.itemStarted(host.currentItem!, switched: false, host: host)
            holder.prepare(next, host: host)
            XCTAssertEqual(host.handedNext??.uri, nil, "the streaming side is told none yet")
            XCTAssertEqual(holder.held?.uri, next.uri)
            host.awaitingOwnStreamStart = false
            holder.ownStreamStarted(host: host)
            XCTAssertEqual(host.handedNext??.uri, next.uri, "given once the loaded item's own stream started")
            XCTAssertNil(holder.held)

            let later = PlaybackItem(uri: "file:///later.mp4")
            holder.prepare(later, host: host)
            XCTAssertEqual(host.handedNext??.uri, later.uri, "after that, at once")

            // A restart on a fresh pipeline takes a handed next item back until the new start.
            host.awaitingOwnStreamStart = true
            holder.loadRestarted(nextHanded: later, host: host)
            XCTAssertEqual(holder.held?.uri, later.uri)
            holder.itemEnding(host: host)
            XCTAssertNil(holder.held, "an item that ended has nothing to follow")
        }
    }
}

/// The end-stall watchdog alone: fed the timer's positions, it ends an item that sits at its end.
final class EndStallWatchdogFeatureTests: XCTestCase {
    func testAnItemSittingStillAtItsEndIsEndedOnceAndOnlyThere() {
        onMain {
            let host = FeatureHostStandIn(), watchdog = configured(EndStallWatchdog()) { $0.endStallTimeout = 3 }
            watchdog.itemStarted(host.currentItem!, switched: false, host: host)
            host.duration = 10
            XCTAssertFalse(watchdog.positionRead(9.8, host: host))
            host.now += 2
            XCTAssertFalse(watchdog.positionRead(9.8, host: host), "not for long enough yet")
            XCTAssertTrue(watchdog.looksStalled(host: host), "but a quit now must not take the pipeline to NULL")
            host.now += 1.5
            XCTAssertTrue(watchdog.positionRead(9.8, host: host))
            XCTAssertEqual(host.calls, ["end-stalled"])

            host.clear()
            for _ in 0..<5 { XCTAssertFalse(watchdog.positionRead(5, host: host)); host.now += 2 }
            XCTAssertFalse(watchdog.looksStalled(host: host), "still in the middle is a pause's business, not this watch's")
            host.bufferingPercent = 40
            for _ in 0..<5 { XCTAssertFalse(watchdog.positionRead(9.9, host: host)); host.now += 2 }
            host.bufferingPercent = nil
            XCTAssertFalse(watchdog.positionRead(9.9, host: host))
            host.now += 2
            watchdog.progressPaused(host: host)  // paused there: the watch starts over
            host.now += 2
            XCTAssertFalse(watchdog.positionRead(9.9, host: host))
            XCTAssertEqual(host.calls, [], "buffering, or paused, at the end is not a stall")
        }
    }
}

/// The stuck-playback watch alone: an adaptive item's buffering or position that stands still.
final class StuckPlaybackFeatureTests: XCTestCase {
    func testAnAdaptiveItemStuckBufferingOrStandingStillFailsAfterItsPatience() {
        onMain {
            let host = FeatureHostStandIn(), watch = StuckPlayback()
            watch.itemStarted(host.currentItem!, switched: false, host: host)
            host.isAdaptive = true
            host.isPrerolled = true
            host.intent = .playing
            host.bufferingPercent = 37
            XCTAssertFalse(watch.timerCheck(host: host))
            host.now += watch.buffering.patience - 1
            XCTAssertFalse(watch.timerCheck(host: host), "still within its patience")
            host.now += 2
            XCTAssertTrue(watch.timerCheck(host: host))
            XCTAssertEqual(host.failure?.kind, .timeout)
            XCTAssertTrue(host.failure?.message.contains("buffering stayed at 37 %") == true, "\(String(describing: host.failure))")

            let next = FeatureHostStandIn()
            watch.itemStarted(next.currentItem!, switched: false, host: next)
            next.isAdaptive = true
            next.duration = 60
            XCTAssertFalse(watch.positionRead(12, host: next))
            next.now += 10
            watch.progressPaused(host: next)  // paused there a while: not a stall
            next.now += 15
            XCTAssertFalse(watch.positionRead(12, host: next))
            next.now += watch.position.patience + 1
            XCTAssertTrue(watch.positionRead(12, host: next), "playing, and the position stood still")
            XCTAssertTrue(next.failure?.message.contains("stalled at 12.0 s") == true, "\(String(describing: next.failure))")

            let file = FeatureHostStandIn()  // not adaptive: a file's own pauses are not this watch's
            watch.itemStarted(file.currentItem!, switched: false, host: file)
            file.bufferingPercent = 10
            file.duration = 60
            for _ in 0..<5 { XCTAssertFalse(watch.timerCheck(host: file)); XCTAssertFalse(watch.positionRead(3, host: file)); file.now += 30 }
            XCTAssertFalse(file.hasFailed)
        }
    }
}

/// Positions ahead of the clock (a file cut short answers its duration before EOS): refused until
/// the clock catches up, believed again after a seek or a stop, a new item, live or in reverse.
final class RunAheadPositionsFeatureTests: XCTestCase {
    func testAReadingAheadOfTheClockEndsTheBeatUntilThePositionJumps() {
        onMain {
            let host = FeatureHostStandIn(), runAhead = RunAheadPositions()
            runAhead.itemStarted(host.currentItem!, switched: false, host: host)
            XCTAssertFalse(runAhead.positionRead(1.0, host: host), "the first reading is believed")
            host.now += 0.5
            XCTAssertFalse(runAhead.positionRead(1.5, host: host))
            host.now += 0.5
            XCTAssertTrue(runAhead.positionRead(9.9, host: host), "8.4 s on in half a second: the duration answered early")
            host.now += 0.5
            XCTAssertFalse(runAhead.positionRead(2.4, host: host), "measured from the last believed reading")
            runAhead.positionJumped(host: host)
            XCTAssertFalse(runAhead.positionRead(8.0, host: host), "after a seek, the target is believed")
            host.now += 0.1
            XCTAssertTrue(runAhead.positionRead(9.9, host: host))
            runAhead.seekLanded(user: true, host: host)
            XCTAssertFalse(runAhead.positionRead(9.9, host: host), "where a seek landed is believed")
            runAhead.itemStarted(PlaybackItem(uri: "file:///next.mkv"), switched: true, host: host)
            XCTAssertFalse(runAhead.positionRead(0.2, host: host), "a new item starts anew")
        }
    }

    func testLiveAndReversePlayAreBelievedAsTheyCome() {
        onMain {
            let host = FeatureHostStandIn(), runAhead = RunAheadPositions()
            host.mediaInfo.isLive = true
            XCTAssertFalse(runAhead.positionRead(1, host: host))
            XCTAssertFalse(runAhead.positionRead(60, host: host), "live: hlsdemux2 jumps to the edge")
            host.mediaInfo.isLive = false
            host.rate = -1
            XCTAssertFalse(runAhead.positionRead(90, host: host))
            XCTAssertFalse(runAhead.positionRead(95, host: host), "reverse")
        }
    }
}

final class LiveDASHEndFeatureTests: XCTestCase {
    /// A live DASH item told its duration changed (its MPD turned static) has its streams
    /// restarted once, where it stands; nothing happens to a live HLS item, a VOD, or before preroll.
    func testALiveMPDThatTurnsStaticRestartsItsStreamsOnce() {
        onMain {
            let host = FeatureHostStandIn(), feature = LiveDASHEnd()
            feature.itemStarted(host.currentItem!, switched: false, host: host)
            host.mediaInfo.isLive = true
            host.isDASH = true
            feature.durationChanged(host: host)
            XCTAssertEqual(host.calls, [], "not before preroll (a VOD's first duration)")
            host.isPrerolled = true
            feature.tick(host: host)
            XCTAssertEqual(host.calls, [], "nothing on a tick")
            feature.durationChanged(host: host)
            feature.durationChanged(host: host)
            XCTAssertEqual(host.calls, ["restart-streams"], "once")

            host.clear()
            feature.itemStarted(host.currentItem!, switched: false, host: host)
            host.isDASH = false
            feature.durationChanged(host: host)
            XCTAssertEqual(host.calls, [], "hlsdemux2 ends a closed playlist itself")
            host.isDASH = true
            host.mediaInfo.isLive = false
            feature.durationChanged(host: host)
            XCTAssertEqual(host.calls, [], "a VOD's duration is no end")
        }
    }
}
