import CGStreamer
import Foundation
@testable import ReelEngine
import ReelTestSupport
import XCTest

/// What the window's video filter costs a user who asked for none of its parts (issue 58): a
/// real pipeline (videotestsrc's 1080p BT.709 frames through the filter a window builds, fitted to
/// a 960×528 video area, into a fakesink). Every part the user did not ask for passes frames
/// through untouched, and the one that works (the fit to the window) sees the frames' colorimetry:
/// without it, 1.22's scaler took its generic path, 5.1 ms a 1080p frame instead of 1.5
/// (docs/BENCHMARKS.md, "The window's video path").
final class VideoFilterDefaultPathTests: XCTestCase {
    func testUntouchedPartsPassFramesThroughAndTheFitKeepsTheColorimetry() throws {
        try onMain {
            GStreamerRuntime.ensureInitialised()
            let filter = try XCTUnwrap(VideoFilter(aspectModes: true, subtitleOverlay: true, fitsToWindow: true))
            filter.fit(width: 960, height: 528)
            let pipeline = try XCTUnwrap(gst_parse_launch(
                "videotestsrc num-buffers=3 ! video/x-raw,format=I420,width=1920,height=1080,framerate=30/1,colorimetry=bt709,chroma-site=mpeg2 ! queue name=in ! fakesink name=out sync=false", nil))
            defer { gst_element_set_state(pipeline, GST_STATE_NULL); gst_object_unref(pipeline) }
            // The filter between the queue and the sink, as playsink puts it between its parts.
            let input = try XCTUnwrap(reel_bin_get_by_name(pipeline, "in")), output = try XCTUnwrap(reel_bin_get_by_name(pipeline, "out"))
            defer { gst_object_unref(input); gst_object_unref(output) }
            gst_element_unlink(input, output)
            XCTAssertEqual(gst_bin_add(UnsafeMutableRawPointer(pipeline).assumingMemoryBound(to: GstBin.self), filter.bin), 1)
            XCTAssertEqual(gst_element_link(input, filter.bin), 1)
            XCTAssertEqual(gst_element_link(filter.bin, output), 1)
            XCTAssertNotEqual(gst_element_set_state(pipeline, GST_STATE_PLAYING), GST_STATE_CHANGE_FAILURE)
            let bus = gst_element_get_bus(pipeline)
            let end = gst_bus_timed_pop_filtered(bus, 10_000_000_000, GstMessageType(rawValue: GST_MESSAGE_EOS.rawValue | GST_MESSAGE_ERROR.rawValue))
            gst_object_unref(bus)
            let ended = try XCTUnwrap(end, "the frames reached the sink")
            XCTAssertEqual(reel_message_type(ended), GST_MESSAGE_EOS, "no error on the way")
            gst_message_unref(ended)

            func element(_ name: String) throws -> UnsafeMutablePointer<GstElement> {
                try XCTUnwrap(reel_bin_get_by_name(filter.bin, name), "\(name) is in the filter")
            }
            func caps(_ name: String, _ pad: String) throws -> String {
                let e = try element(name)
                defer { gst_object_unref(e) }
                let p = try XCTUnwrap(gst_element_get_static_pad(e, pad))
                defer { gst_object_unref(p) }
                let current = try XCTUnwrap(gst_pad_get_current_caps(p), "\(name).\(pad) negotiated")
                defer { gst_caps_unref(current) }
                let text = gst_caps_to_string(current)
                defer { g_free(text) }
                return text.map { String(cString: $0) } ?? ""
            }
            func passesThrough(_ name: String) throws -> Bool {
                let e = try element(name)
                defer { gst_object_unref(e) }
                return gst_base_transform_is_passthrough(UnsafeMutableRawPointer(e).assumingMemoryBound(to: GstBaseTransform.self)) != 0
            }
            // Nothing asked: the picture controls, both turns and the box leave every frame as it
            // came (no copy, no conversion; the capsfilters and capssetter touch no pixel anyway).
            for name in ["reel-balance", "reel-gamma", "reel-orientation", "reel-rotate", "reel-zoom"] {
                XCTAssertTrue(try passesThrough(name), "\(name) passes frames through")
            }
            // The fit scales the frames as they came, colorimetry and chroma siting included.
            let scaled = try caps("reel-fit-scale", "sink")
            XCTAssertTrue(scaled.contains("format=(string)I420") && scaled.contains("width=(int)1920"), scaled)
            XCTAssertTrue(scaled.contains("colorimetry=(string)bt709"), "the scaler knows the frames' colorimetry: \(scaled)")
            XCTAssertTrue(scaled.contains("chroma-site=(string)mpeg2"), "and their chroma siting: \(scaled)")
            let shown = try caps("reel-fit", "src")
            XCTAssertTrue(shown.contains("width=(int)960") && shown.contains("height=(int)528") && shown.contains("colorimetry=(string)bt709"), shown)
        }
    }

    /// The user's rotation still turns the picture, and turning it back leaves it untouched again
    /// (videoflip sets passthrough on each change of its method).
    func testTheUsersRotationTurnsThePictureAndTurnedBackPassesItThrough() throws {
        try onMain {
            GStreamerRuntime.ensureInitialised()
            let filter = try XCTUnwrap(VideoFilter(aspectModes: false, subtitleOverlay: false))
            let rotate = try XCTUnwrap(reel_bin_get_by_name(filter.bin, "reel-rotate"))
            defer { gst_object_unref(rotate) }
            let transform = UnsafeMutableRawPointer(rotate).assumingMemoryBound(to: GstBaseTransform.self)
            XCTAssertEqual(gst_base_transform_is_passthrough(transform), 1, "untouched at first")
            reel_set_int(rotate, "method", 1)  // 90° clockwise
            XCTAssertEqual(gst_base_transform_is_passthrough(transform), 0, "turned: it works on every frame")
            reel_set_int(rotate, "method", 0)
            XCTAssertEqual(gst_base_transform_is_passthrough(transform), 1, "turned back: untouched again")
        }
    }
}
