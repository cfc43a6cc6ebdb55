import CGStreamer
import Foundation
import ReelCore
@testable import ReelEngine
import ReelTestSupport
import XCTest

/// The `Tracks` feature alone on a stand-in host, fed the bus's stream collections and
/// selections as playbin3 posts them (real `GstStreamCollection`s, built here): what it lists,
/// what it reports and when, what it asks playbin3 for. (Real pipelines: TrackTests,
/// ExternalSubtitleTests, the gapless suites.)
final class TracksFeatureTests: XCTestCase {
    /// A collection of a video stream, English and French audio and an English text stream.
    @MainActor
    private static func collection(prefix: String = "") -> StreamCollectionRef {
        GStreamerRuntime.ensureInitialised()
        let collection = gst_stream_collection_new("test")!
        for (id, type, language) in [("v", GST_STREAM_TYPE_VIDEO, nil), ("a-en", GST_STREAM_TYPE_AUDIO, "en"),
                                     ("a-fr", GST_STREAM_TYPE_AUDIO, "fr"), ("t-en", GST_STREAM_TYPE_TEXT, "en")] as [(String, GstStreamType, String?)] {
            let stream = gst_stream_new(prefix + id, nil, type, GST_STREAM_FLAG_NONE)!
            if let language { gst_stream_set_tags(stream, gst_tag_list_new_from_string("taglist, language-code=(string)\(language)")) }
            gst_stream_collection_add_stream(collection, stream)
        }
        defer { gst_object_unref(collection) }
        return StreamCollectionRef(collection)
    }

    @MainActor
    private static func feature(alang: [String] = []) -> Tracks {
        configured(Tracks()) { $0.preferences.audioLanguages = alang }
    }

    @MainActor
    private static func tracksEvents(_ host: FeatureHostStandIn) -> [(ids: [String], selected: [String])] {
        host.events.compactMap { event in
            guard case .tracks(let list, let selected, _) = event else { return nil }
            return (list.map(\.id), selected)
        }
    }

    /// A choice made while a seek re-prerolls a paused pipeline (the redraw after the choice
    /// before) waits for the seek to land: sent then, decodebin3 1.22 held it for a sink waiting in
    /// preroll and playbin3 its lock, and the main thread with it.
    func testAChoiceWhileAPausedSeekIsInFlightIsSentOnceItLands() {
        onMain {
            let host = FeatureHostStandIn(), tracks = Self.feature()
            tracks.itemStarted(host.currentItem!, switched: false, host: host)
            tracks.streamCollection(Self.collection(), nextItem: false, host: host)
            tracks.streamsSelected(["v", "a-en"], nextItem: false, host: host)
            host.isPrerolled = true
            tracks.readying(host: host)
            host.isSeeking = true
            tracks.selectAudio("a-fr", host: host)
            XCTAssertTrue(tracks.streams.selectionAfterSeek, "held while the seek is in flight")
            XCTAssertFalse(tracks.streams.redrawAfterSelection, "not sent: no redraw awaited")
            host.isSeeking = false
            tracks.seekLanded(user: false, host: host)
            XCTAssertFalse(tracks.streams.selectionAfterSeek)
            XCTAssertTrue(tracks.streams.redrawAfterSelection, "sent once it landed (paused: its redraw awaits STREAMS_SELECTED)")
            XCTAssertEqual(tracks.streams.trackChoice.audio, "a-fr")
        }
    }

    func testTracksAreReportedOnceWhatPlaysIsKnownAndTheLanguageAskedForIsChosenAfterPreroll() {
        onMain {
            let host = FeatureHostStandIn(), tracks = Self.feature(alang: ["fr"])
            tracks.itemStarted(host.currentItem!, switched: false, host: host)
            tracks.streamCollection(Self.collection(), nextItem: false, host: host)
            XCTAssertEqual(tracks.all.map(\.language), [nil, "en", "fr", "en"])
            XCTAssertTrue(Self.tracksEvents(host).isEmpty, "not before playbin3 says what it plays (it would say nothing is selected)")
            tracks.streamsSelected(["v", "a-en"], nextItem: false, host: host)
            XCTAssertEqual(Self.tracksEvents(host).map(\.selected), [["v", "a-en"]])
            XCTAssertEqual(tracks.streams.trackChoice.audio, "a-en", "the choice follows playbin3's own until preroll")
            XCTAssertTrue(tracks.choiceNeedsLoad, "--alang with two audio tracks: a gapless switch could not carry the choice")

            host.isPrerolled = true
            tracks.readying(host: host)
            XCTAssertEqual(tracks.streams.trackChoice.audio, "a-fr", "--alang fr chose the French track")
            XCTAssertEqual(Self.tracksEvents(host).count, 1, "nothing new to say until playbin3 confirms")
            XCTAssertEqual(host.calls, [], "paused: the redraw waits for the selection (SelectThenSeek)")
            tracks.streamsSelected(["v", "a-fr"], nextItem: false, host: host)
            XCTAssertEqual(host.calls, ["redraw"])
            XCTAssertEqual(Self.tracksEvents(host).map(\.selected), [["v", "a-en"], ["v", "a-fr"]])
            tracks.streamsSelected(["a-fr", "v"], nextItem: false, host: host)
            XCTAssertEqual(Self.tracksEvents(host).count, 2, "the same selection in another order is no change")

            var snapshot = PlaybackSnapshot()
            tracks.readout(into: &snapshot, host: host)
            XCTAssertEqual(snapshot.tracks.count, 4)
            XCTAssertEqual(snapshot.audioTrack, "a-fr")
            XCTAssertEqual(Set(snapshot.selectedStreams), ["v", "a-fr"])

            tracks.itemUnloaded(host: host)
            XCTAssertTrue(tracks.all.isEmpty)
            XCTAssertEqual(tracks.memory.languages.audio, "fr", "the language chosen outlives the item")
        }
    }

    func testTheNextItemsCollectionAndSelectionWaitForItsGaplessSwitch() {
        onMain {
            let host = FeatureHostStandIn(), tracks = Self.feature()
            host.isPrerolled = true
            tracks.itemStarted(host.currentItem!, switched: false, host: host)
            tracks.streamCollection(Self.collection(), nextItem: false, host: host)
            tracks.streamsSelected(["v", "a-en"], nextItem: false, host: host)
            host.clear()
            tracks.streamCollection(Self.collection(prefix: "next-"), nextItem: true, host: host)
            tracks.streamsSelected(["next-v", "next-a-en"], nextItem: true, host: host)
            XCTAssertEqual(tracks.all.first?.id, "v", "still the current item's")
            XCTAssertTrue(host.events.isEmpty)
            tracks.itemStarted(PlaybackItem(uri: "file:///next.mkv"), switched: true, host: host)
            XCTAssertEqual(tracks.streams.selectedStreams, ["next-v", "next-a-en"], "what playbin3 selected for it before it started")
            tracks.streamStarted(host: host)
            XCTAssertEqual(tracks.all.map(\.id), ["next-v", "next-a-en", "next-a-fr", "next-t-en"])
            XCTAssertEqual(Self.tracksEvents(host).map(\.selected), [["next-v", "next-a-en"]])
            XCTAssertFalse(tracks.choiceNeedsLoad, "playbin3's own choice, no preferences: stays gapless")
        }
    }
}

/// The subtitles' look alone: on every pipeline built, clamped, said once per change.
final class SubtitleLookFeatureTests: XCTestCase {
    func testTheLookGoesOnEachPipelineClampedAndAPausedFrameShowsIt() {
        onMain {
            let host = FeatureHostStandIn()
            let look = configured(SubtitleLook()) { $0.preferences.subtitleLook = SubtitleAdjustments(scale: 1.5, delay: 0.25, position: 90) }
            look.pipelineBuilt(host: host)
            // playbin3's text-offset (the media's own subtitles); its font and textoverlay's are write-only.
            XCTAssertEqual(reel_get_int64(host.pipelineElement, "text-offset"), 250_000_000)
            look.setDelay(-1e9, host: host)
            XCTAssertEqual(look.look.delay, SubtitleStyle.clampedDelay(-1e9))
            look.setDelay(-1e9, host: host)
            XCTAssertEqual(host.calls, ["redraw"], "the same value again changes nothing")
            var snapshot = PlaybackSnapshot()
            look.readout(into: &snapshot, host: host)
            XCTAssertEqual(snapshot.subtitleLook, look.look)
            let fresh = FeatureHostStandIn()
            look.pipelineBuilt(host: fresh)  // the next load's pipeline gets it too
            let clamped: Double = SubtitleStyle.clampedDelay(-1e9)
            XCTAssertEqual(reel_get_int64(fresh.pipelineElement, "text-offset"), gint64(clamped * 1e9))
        }
    }
}
