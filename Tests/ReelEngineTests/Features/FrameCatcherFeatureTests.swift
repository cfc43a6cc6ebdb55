import CGStreamer
import Foundation
import ReelCore
@testable import ReelEngine
import ReelTestSupport
import XCTest

/// The frame catcher alone, on real pipelines (videotestsrc at 10 fps into a fakesink): the frame
/// on screen at T is the last one whose timestamp is ≤ T, and a new pipeline retires the catcher
/// without losing what it caught.
final class FrameCatcherFeatureTests: XCTestCase {
    /// A 1 s pipeline at 10 fps, and its sink.
    @MainActor
    private static func pipeline() -> (pipeline: UnsafeMutablePointer<GstElement>, sink: UnsafeMutablePointer<GstElement>) {
        GStreamerRuntime.ensureInitialised()
        let pipeline = gst_parse_launch("videotestsrc num-buffers=10 ! video/x-raw,format=RGBA,width=32,height=24,framerate=10/1 ! fakesink name=sink sync=false", nil)!
        let sink = reel_bin_get_by_name(pipeline, "sink")!
        gst_object_unref(sink)  // the pipeline keeps it
        return (pipeline, sink)
    }

    /// Plays `pipeline` to its end, then takes it down.
    private static func playToTheEnd(_ pipeline: UnsafeMutablePointer<GstElement>) {
        gst_element_set_state(pipeline, GST_STATE_PLAYING)
        let bus = gst_element_get_bus(pipeline)
        let message = gst_bus_timed_pop_filtered(bus, 5_000_000_000, GstMessageType(rawValue: GST_MESSAGE_EOS.rawValue | GST_MESSAGE_ERROR.rawValue))
        XCTAssertNotNil(message, "the pipeline reached its end")
        if let message { gst_message_unref(message) }
        gst_object_unref(bus)
        gst_element_set_state(pipeline, GST_STATE_NULL)
    }

    func testTheFrameAtATimeIsTheLastOneAtOrBeforeIt() {
        onMain {
            let catcher = FrameCatcher(), (pipeline, sink) = Self.pipeline()
            defer { catcher.shutdown(host: FeatureHostStandIn()); gst_object_unref(pipeline) }
            XCTAssertTrue(catcher.catchFrames(at: [0.55, 0.25, -1], on: sink))
            Self.playToTheEnd(pipeline)
            let frames = catcher.take(displaySize: nil, uri: nil)
            XCTAssertEqual(frames.map(\.target), [0.25, 0.55], "in time order; a negative time is no target")
            XCTAssertEqual(frames.compactMap { try? $0.frame.get().time }, [0.2, 0.5])
            XCTAssertTrue(frames.allSatisfy { (try? $0.frame.get().png.prefix(4)) == Data([0x89, 0x50, 0x4E, 0x47]) }, "PNGs")
            XCTAssertEqual(catcher.take(displaySize: nil, uri: nil).count, 0, "taken once")
        }
    }

    func testANewPipelineRetiresTheCatcherAndWhatItCaughtIsStillTaken() {
        onMain {
            let host = FeatureHostStandIn(), catcher = FrameCatcher()
            defer { catcher.shutdown(host: host) }
            let first = Self.pipeline()
            defer { gst_object_unref(first.pipeline) }
            XCTAssertTrue(catcher.catchFrames(at: [0.25], on: first.sink))
            Self.playToTheEnd(first.pipeline)
            // The player builds a pipeline for the next item before it says the item changed (when
            // `--screenshot-at` takes the last item's frames).
            catcher.pipelineBuilt(host: host)
            let second = Self.pipeline()
            defer { gst_object_unref(second.pipeline) }
            XCTAssertTrue(catcher.catchFrames(at: [0.75], on: second.sink))
            Self.playToTheEnd(second.pipeline)
            let frames = catcher.take(displaySize: nil, uri: nil)
            XCTAssertEqual(frames.map(\.target), [0.25, 0.75], "the retired catcher's frame first")
            XCTAssertEqual(frames.compactMap { try? $0.frame.get().time }, [0.2, 0.7])
        }
    }
}
