import CGStreamer
import Foundation
import ReelCore
@testable import ReelEngine
import ReelTestSupport
import ReelGLib
import XCTest

/// Each of the player's features alone, on a stand-in host (`FeatureHostStandIn`): the hooks in,
/// the events and requests out. (Their parts in a real pipeline are the engine's and the app's
/// suites: audio focus with a real PulseAudio, the live events with a live server, chapters below.)
final class AudioFocusFeatureTests: XCTestCase {
    func testACorkWhilePlayingPausesAndItsUncorkResumes() {
        onMain {
            let host = FeatureHostStandIn(), focus = AudioFocus()
            host.onUserIntent = { focus.userChangedIntent(host: host) }
            host.intent = .playing
            focus.requestedState(.paused, host: host)
            XCTAssertEqual(host.calls, ["pause"])
            XCTAssertEqual(host.events, [.audioFocus(held: false)])
            XCTAssertTrue(focus.pausedForFocus)
            focus.requestedState(.playing, host: host)
            XCTAssertEqual(host.calls, ["pause", "play"])
            XCTAssertEqual(host.events, [.audioFocus(held: false), .audioFocus(held: true)])
            XCTAssertFalse(focus.pausedForFocus)
        }
    }

    func testACorkWhilePausedAndAnUncorkAfterTheUserChoseAreLeftAlone() {
        onMain {
            let host = FeatureHostStandIn(), focus = AudioFocus()
            host.onUserIntent = { focus.userChangedIntent(host: host) }
            focus.requestedState(.paused, host: host)  // paused already: not ours
            focus.requestedState(.playing, host: host)
            XCTAssertEqual(host.calls, [])
            host.intent = .playing
            focus.requestedState(.ready, host: host)
            host.pause()  // the user paused during the call …
            host.play()   // … and played again: the uncork is not ours to act on
            host.clear()
            focus.requestedState(.playing, host: host)
            XCTAssertEqual(host.calls, [])
            XCTAssertEqual(host.events, [])
        }
    }
}

final class LiveTitleFeatureTests: XCTestCase {
    func testALiveTitleIsSaidAsItChangesAtMostOnceASecond() {
        onMain {
            let host = FeatureHostStandIn(), title = LiveTitle()
            host.mediaInfo.isLive = true
            title.itemStarted(host.currentItem!, switched: false, host: host)
            title.tags(ItemTags(title: "Station", picture: { nil }), host: host)  // before preroll: the item's own
            XCTAssertEqual(host.calls, [])
            host.isPrerolled = true
            title.tags(ItemTags(title: "Station", picture: { nil }), host: host)  // the same again
            XCTAssertEqual(host.calls, [])
            host.mediaInfo.title = "Song A"
            title.tags(ItemTags(title: "Song A", picture: { nil }), host: host)
            XCTAssertEqual(host.calls, ["media-info Song A"])
            host.now += 0.2
            host.mediaInfo.title = "Song B"
            title.tags(ItemTags(title: "Song B", picture: { nil }), host: host)  // within the second: kept
            title.tick(host: host)
            XCTAssertEqual(host.calls.count, 1)
            host.now += 0.9
            title.tick(host: host)  // its second has come
            XCTAssertEqual(host.calls, ["media-info Song A", "media-info Song B"])
            title.tick(host: host)
            XCTAssertEqual(host.calls.count, 2, "said once")
        }
    }

    func testAFilesTitleAfterItsPrerollIsNotSaidAgain() {
        onMain {
            let host = FeatureHostStandIn(), title = LiveTitle()
            host.isPrerolled = true
            title.tags(ItemTags(title: "A", picture: { nil }), host: host)
            title.tags(ItemTags(title: "B", picture: { nil }), host: host)
            XCTAssertEqual(host.calls, [])
        }
    }
}

final class CoverArtFeatureTests: XCTestCase {
    func testTheFirstPictureIsKeptUntilTheNextItem() {
        onMain {
            let host = FeatureHostStandIn(), art = CoverArt()
            var copies = 0
            art.tags(ItemTags(title: nil, picture: { nil }), host: host)
            XCTAssertNil(art.picture)
            art.tags(ItemTags(title: nil, picture: { copies += 1; return Data([1, 2, 3]) }), host: host)
            art.tags(ItemTags(title: nil, picture: { copies += 1; return Data([9]) }), host: host)
            XCTAssertEqual(art.picture, Data([1, 2, 3]))
            XCTAssertEqual(readout(of: art, host).coverArt, Data([1, 2, 3]), "what the window and the socket read")
            XCTAssertEqual(copies, 1, "a picture is copied out of the tags only while none is kept")
            art.itemStarted(PlaybackItem(uri: "file:///next.mp3"), switched: true, host: host)
            XCTAssertNil(art.picture)
            XCTAssertEqual(host.events, [])
        }
    }
}

final class AspectFeatureTests: XCTestCase {
    func testTheModeAndAreaAreKeptAndAPausedFrameRedrawnThroughTheFilter() throws {
        try onMain {
            GStreamerRuntime.ensureInitialised()
            let host = FeatureHostStandIn(), aspect = Aspect()
            aspect.setMode(.fill, host: host)  // no filter (headless): kept, nothing to redraw
            XCTAssertEqual(aspect.mode, .fill)
            XCTAssertEqual(host.calls, [])
            let filter = try XCTUnwrap(VideoFilter(aspectModes: true, subtitleOverlay: false))
            host.aspectFilter = filter.aspect
            host.pictureSize = (640, 360)
            aspect.setArea(width: 400, height: 400, host: host)
            XCTAssertEqual(host.calls, ["redraw"], "fill takes the area's shape: the paused frame is drawn anew")
            aspect.setArea(width: 400, height: 400, host: host)
            XCTAssertEqual(host.calls, ["redraw"], "the same area again changes nothing")
            aspect.setMode(.fill, host: host)
            XCTAssertEqual(host.calls, ["redraw"], "the same mode again changes nothing")
            aspect.setMode(.fit, host: host)
            XCTAssertEqual(host.calls, ["redraw", "redraw"])
            aspect.setArea(width: 300, height: 200, host: host)
            XCTAssertEqual(host.calls.count, 2, "fit does not depend on the area")
            XCTAssertEqual(aspect.area?.width, 300)
        }
    }
}

final class LiveAnnouncementsFeatureTests: XCTestCase {
    func testAProgrammesEndIsSaidOnceAfterPrerollAndAgainForTheNextItem() {
        onMain {
            let host = FeatureHostStandIn(), live = LiveAnnouncements()
            let start = Date(timeIntervalSince1970: 1_800_000_000)
            var clock = start
            live.wallClock = { clock }
            host.liveStream = LiveStream(program: LiveProgram(mode: .live, start: start.addingTimeInterval(-60), end: start.addingTimeInterval(10)))
            live.itemStarted(host.currentItem!, switched: false, host: host)
            live.tick(host: host)
            clock = start.addingTimeInterval(11)
            live.tick(host: host)
            XCTAssertEqual(host.events, [], "not before the item prerolled")
            host.isPrerolled = true
            live.prerolled(host: host)
            live.tick(host: host)
            live.tick(host: host)
            XCTAssertEqual(host.events, [.liveProgramEnd(programEnd: start.addingTimeInterval(10))])
            live.itemStarted(host.currentItem!, switched: false, host: host)
            live.tick(host: host)
            XCTAssertEqual(host.events.count, 2, "the next item (a replay) says it again")
        }
    }

    func testACatchupProgrammeAndAnItemWithoutOneSayNothing() {
        onMain {
            let host = FeatureHostStandIn(), live = LiveAnnouncements()
            live.wallClock = { Date(timeIntervalSince1970: 1_900_000_000) }
            host.isPrerolled = true
            live.prerolled(host: host)
            live.tick(host: host)
            host.liveStream = LiveStream(program: LiveProgram(mode: .catchup, start: Date(timeIntervalSince1970: 1_700_000_000), end: Date(timeIntervalSince1970: 1_700_000_600)))
            live.prerolled(host: host)
            live.tick(host: host)
            XCTAssertEqual(host.events, [])
        }
    }
}

final class ChaptersFeatureTests: XCTestCase {
    static let toc = [Chapter(title: "Credits", time: 9), Chapter(title: "Opening", time: 0), Chapter(title: "Past the end", time: 30),
               Chapter(title: "Middle", time: 4), Chapter(title: "Middle again", time: 4)]

    func testATableOfContentsIsSaidInTimeOrderTrimmedToTheDurationOnce() {
        onMain {
            let host = FeatureHostStandIn(), chapters = Chapters()
            chapters.itemStarted(host.currentItem!, switched: false, host: host)
            chapters.tableOfContents(Self.toc, nextItem: false, host: host)
            XCTAssertEqual(chapters.list.map(\.time), [0, 4, 9, 30], "before the duration is known, all of them")
            chapters.tableOfContents(Self.toc, nextItem: false, host: host)  // every sink posts it
            host.duration = 12
            chapters.prerolled(host: host)
            XCTAssertEqual(chapters.list.map(\.title), ["Opening", "Middle", "Credits"])
            host.position = 5
            let shown = readout(of: chapters, host)
            XCTAssertEqual(shown.chapters.map(\.title), ["Opening", "Middle", "Credits"])
            XCTAssertEqual(shown.chapter, 1, "5 s is in the second chapter")
            XCTAssertEqual(host.events.count, 2, "one event per change: \(host.events)")
            chapters.prerolled(host: host)
            XCTAssertEqual(host.events.count, 2)
        }
    }

    func testPageUpAndDownGoAsMpvsAddChapter() {
        onMain {
            let host = FeatureHostStandIn(), chapters = Chapters()
            host.duration = 12
            chapters.tableOfContents(Self.toc, nextItem: false, host: host)
            host.position = 5
            XCTAssertEqual(chapters.current(host: host), 1)
            XCTAssertTrue(chapters.step(1, host: host))
            XCTAssertEqual(host.position, 9)
            XCTAssertFalse(chapters.step(1, host: host), "past the last chapter: nothing")
            host.position = 9.5
            XCTAssertTrue(chapters.step(-1, host: host), "within 5 s of its start: the chapter before")
            XCTAssertEqual(host.position, 4)
            host.position = 10
            XCTAssertTrue(chapters.select(0, host: host))
            XCTAssertFalse(chapters.select(3, host: host))
            XCTAssertEqual(host.calls, ["seek 9.0 accurate", "seek 4.0 accurate", "seek 0.0 accurate"])
        }
    }

    func testTheNextItemsChaptersWaitForItsSwitch() {
        onMain {
            let host = FeatureHostStandIn(), chapters = Chapters()
            chapters.tableOfContents([Chapter(title: "A", time: 0)], nextItem: false, host: host)
            chapters.tableOfContents([Chapter(title: "B1", time: 0), Chapter(title: "B2", time: 1)], nextItem: true, host: host)
            XCTAssertEqual(chapters.list.map(\.title), ["A"])
            chapters.itemStarted(PlaybackItem(uri: "file:///b.mkv"), switched: true, host: host)
            XCTAssertEqual(chapters.list.map(\.title), ["B1", "B2"])
            chapters.itemStarted(PlaybackItem(uri: "file:///c.mkv"), switched: false, host: host)
            XCTAssertEqual(chapters.list, [])
        }
    }
}

final class ABLoopFeatureTests: XCTestCase {
    func testLSetsAThenBThenClearsAndTicksPastBGoBackToA() {
        onMain {
            let host = FeatureHostStandIn(), loop = ABLoopFeature()
            host.position = 2
            loop.cycle(host: host)
            host.position = 3
            loop.cycle(host: host)
            XCTAssertEqual(loop.loop, ABLoop(a: 2, b: 3))
            XCTAssertEqual(readout(of: loop, host).abLoop, ABLoop(a: 2, b: 3))
            XCTAssertEqual(host.events, [.abLoop(a: 2, b: nil), .abLoop(a: 2, b: 3)])
            host.intent = .playing
            host.position = 2.9
            loop.tick(host: host)
            XCTAssertEqual(host.calls, [], "before B: plays on")
            host.position = 3.1
            loop.tick(host: host)
            XCTAssertEqual(host.calls, ["seek 2.0 accurate"])
            host.position = 8
            loop.tick(host: host)
            XCTAssertEqual(host.calls.count, 1, "a seek out of the loop is the user's: left alone")
            host.intent = .paused
            host.position = 3.05
            loop.tick(host: host)
            XCTAssertEqual(host.calls.count, 1, "paused: nothing")
            loop.itemStarted(PlaybackItem(uri: "file:///next.mp4"), switched: false, host: host)
            XCTAssertEqual(loop.loop, ABLoop(), "a new item starts without one")
            XCTAssertEqual(host.events.last, .abLoop(a: nil, b: nil))
        }
    }
}

final class AudioDelayFeatureTests: XCTestCase {
    func testTheDelayIsPlaybinsAVOffsetKeptForEveryPipelineAndBounded() {
        onMain {
            let host = FeatureHostStandIn(), delay = AudioDelay()
            delay.set(0.3, host: host)
            XCTAssertEqual(reel_get_int64(host.pipelineElement, "av-offset"), 300_000_000)
            delay.set(0.3, host: host)
            delay.set(-1000, host: host)
            XCTAssertEqual(delay.seconds, -600)
            XCTAssertEqual(readout(of: delay, host).audioDelay, -600)
            delay.set(.nan, host: host)
            XCTAssertEqual(host.events, [.audioDelay(0.3), .audioDelay(-600)])
            let fresh = FeatureHostStandIn()
            delay.pipelineBuilt(host: fresh)  // a new pipeline (the next load) gets it too
            XCTAssertEqual(reel_get_int64(fresh.pipelineElement, "av-offset"), -600_000_000_000)
        }
    }
}

final class PictureControlsFeatureTests: XCTestCase {
    func testEachControlGoesOnTheFiltersElementsClampedAndSaid() throws {
        try onMain {
            GStreamerRuntime.ensureInitialised()  // alone, no test before it has (the filter is made before the stand-in's pipeline)
            let host = FeatureHostStandIn(), picture = PictureControls()
            host.videoFilter = try XCTUnwrap(VideoFilter(aspectModes: false, subtitleOverlay: false))
            picture.set(.brightness, to: -50, host: host)
            picture.set(.contrast, to: 250, host: host)
            picture.set(.gamma, to: 50, host: host)
            picture.set(.hue, to: 10, host: host)
            let balance = try XCTUnwrap(host.videoFilterElement("reel-balance")), gamma = try XCTUnwrap(host.videoFilterElement("reel-gamma"))
            defer { gst_object_unref(balance); gst_object_unref(gamma) }
            XCTAssertEqual(reel_get_double(balance, "brightness"), -0.5, accuracy: 1e-9)
            XCTAssertEqual(reel_get_double(balance, "contrast"), 2, accuracy: 1e-9, "clamped to 100")
            XCTAssertEqual(reel_get_double(balance, "saturation"), 1, accuracy: 1e-9, "untouched")
            XCTAssertEqual(reel_get_double(balance, "hue"), 0.1, accuracy: 1e-9)
            XCTAssertEqual(reel_get_double(gamma, "gamma"), 2, accuracy: 1e-9)
            XCTAssertEqual(readout(of: picture, host).picture[.contrast], 100, "the snapshot says the clamped value")
            XCTAssertEqual(host.events, [.picture(control: "brightness", value: -50), .picture(control: "contrast", value: 100),
                                         .picture(control: "gamma", value: 50), .picture(control: "hue", value: 10)])
            XCTAssertEqual(host.calls, ["redraw", "redraw", "redraw", "redraw"], "a paused frame is drawn anew each time")
        }
    }
}

final class HardwareDecodersFeatureTests: XCTestCase {
    func testAFailingHardwareDecoderFallsBackOncePerItemWhereItWas() {
        onMain {
            let host = FeatureHostStandIn(), decoders = configured(HardwareDecoders()) { $0.preferences.hardwareDecoding = .no }
            XCTAssertEqual(decoders.mode, .no, "--hwdec from the configuration")
            host.reloadPosition = 12
            XCTAssertTrue(decoders.fallBack(decoder: "vah264dec", reason: "device lost", host: host))
            XCTAssertEqual(host.calls, ["reload 0 at 12.0"])
            guard case .warning(let w)? = host.events.first else { return XCTFail("\(host.events)") }
            XCTAssertEqual(w.code, "hwdec-fallback")
            XCTAssertFalse(decoders.fallBack(decoder: "vah264dec", reason: "again", host: host), "once: a second failure is the item's")
            XCTAssertEqual(host.calls.count, 1)
            host.currentItem = PlaybackItem(uri: "file:///next.mp4")
            XCTAssertTrue(decoders.mayFallBack(host.currentItem!), "the next item may fall back again")
        }
    }
}

/// The Wayland paused-seek workaround as a feature: a user's seek that lands while paused on
/// Wayland is drawn once more 0.12 s later, unless the item changed or playback started.
final class WaylandPausedSeekRedrawFeatureTests: XCTestCase {
    func testOnlyAUsersPausedSeekOnWaylandIsDrawnAgainForTheSameItem() {
        onMain {
            let host = FeatureHostStandIn(), redraw = WaylandPausedSeekRedraw()
            @MainActor func landed(user: Bool) -> [String] {
                host.clear()
                redraw.seekLanded(user: user, host: host)
                GLibMainLoop.spin(for: 0.3)
                return host.calls
            }
            XCTAssertEqual(landed(user: true), [], "X11: never")
            host.isOnWayland = true
            XCTAssertEqual(landed(user: true), ["redraw"])
            XCTAssertEqual(landed(user: false), [], "Reel's own seek (the redraw itself): not again")
            host.pipelineIsPaused = false
            XCTAssertEqual(landed(user: true), [], "playing: the next frames draw it")
            host.pipelineIsPaused = true
            host.clear()
            redraw.seekLanded(user: true, host: host)
            host.loadGeneration += 1  // another item was loaded meanwhile
            GLibMainLoop.spin(for: 0.3)
            XCTAssertEqual(host.calls, [])
        }
    }
}

/// What a feature writes into the snapshot the socket, MPRIS and the window read (its `readout`).
@MainActor
func readout(of feature: any PlayerFeature, _ host: FeatureHost) -> PlaybackSnapshot {
    var snapshot = PlaybackSnapshot()
    feature.readout(into: &snapshot, host: host)
    return snapshot
}
