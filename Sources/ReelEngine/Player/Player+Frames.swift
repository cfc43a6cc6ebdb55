import CGStreamer
import CReelFrame
import Foundation
import ReelCore
import Synchronization

/// The picture: the frame on screen as PNG, and the window the sink draws into.
extension Player {
    /// The frame on screen as PNG bytes, or nil when there is none. The frame is encoded at the
    /// video's own size in square pixels, not at the size the sink scaled it to for a window.
    public func snapshotPNG() -> Data? {
        var size: Int = 0
        var error: UnsafeMutablePointer<CChar>?
        let (width, height) = captureSize ?? (0, 0)
        guard let bytes = reel_frame_snapshot_png(UnsafeMutableRawPointer(pipeline.element), Int32(width), Int32(height), &size, &error) else {
            if let error { reel_frame_free(error) }
            return nil
        }
        defer { reel_frame_free(bytes) }
        return Data(bytes: bytes, count: size)
    }

    /// The size frames are captured at: the picture as shown (turned upright, square pixels),
    /// before any scaling to a window. The video filter's output says it once a frame passed;
    /// before that, the stream collection's sizes.
    var captureSize: (Int, Int)? {
        videoFilter?.turnedPictureSize.map { ($0.width, $0.height) } ?? videoDisplaySize
    }

    /// The presentation time of the frame on screen, in seconds.
    public var displayedFrameTime: Double? {
        let pts = reel_sample_pts(pipeline.element)
        return reel_gst_clock_time_is_valid(pts) != 0 ? Double(pts) / 1e9 : nil
    }

    /// Gives the video sink the window to draw into (GstVideoOverlay: an X11 window id, or on
    /// Wayland the toplevel's `wl_surface`, with `setVideoRectangle`). Returns whether the
    /// configured sink accepts one.
    @discardableResult
    public func setWindowHandle(_ handle: UInt) -> Bool {
        output.handle = handle
        // A first frame waiting at the gate holds playsink's lock: it is let through first (it
        // gives its sink the handle and place), then the sink is asked for here. waylandsink
        // makes its subsurface at the first handle and takes places only once it has one, so
        // the place is given again after the handle.
        windowGate?.open(handle, rectangle: output.rectangle)
        windowGate = nil
        guard let sink = pipeline.sink("video-sink") else { return false }
        defer { gst_object_unref(sink) }
        return output.attach(reel_gst_element(sink))
    }

    /// A Wayland session: every video sink draws on GTK's connection (`display`: its
    /// `wl_display`). Call before the first load.
    public func useWaylandDisplay(_ display: UInt) {
        output.waylandDisplay = display
        guard let sink = pipeline.sink("video-sink") else { return }
        defer { gst_object_unref(sink) }
        output.prepare(reel_gst_element(sink))
    }

    /// Where the video area is in the window whose handle the sink has (Wayland: the toplevel),
    /// in its logical pixels. The sink's picture moves and scales with it.
    public func setVideoRectangle(x: Int, y: Int, width: Int, height: Int) {
        let r = VideoOutput.Rectangle(x: Int32(clamping: x), y: Int32(clamping: y), width: Int32(clamping: width), height: Int32(clamping: height))
        guard r != output.rectangle else { return }
        output.rectangle = r
        guard output.handle != nil, let sink = pipeline.sink("video-sink") else { return }
        defer { gst_object_unref(sink) }
        output.place(reel_gst_element(sink))
    }

    /// A window is being built for the video: the pipeline may start (`load`, `play`) at once and
    /// preroll while it is; the first frame waits for `setWindowHandle` (or `windowHandleUnavailable`)
    /// rather than opening a window of the sink's own (`WindowHandleGate`). Call before the first load.
    public func expectWindowHandle() {
        guard output.handle == nil, windowGate == nil else { return }
        let gate = WindowHandleGate()
        windowGate = gate
        attachWindowGate()
    }

    /// The window has no handle to give (no X11 window): frames waiting for one go on without.
    public func windowHandleUnavailable() {
        windowGate?.cancel()
        windowGate = nil
    }

    /// Puts the waiting gate (if any) on the current pipeline's video sink.
    func attachWindowGate() {
        guard let windowGate, let sink = pipeline.sink("video-sink") else { return }
        defer { gst_object_unref(sink) }
        windowGate.attach(to: reel_gst_element(sink))
    }

    /// Asks the video sink to redraw the last frame (after the window was exposed).
    public func expose() {
        guard let sink = pipeline.sink("video-sink") else { return }
        reel_overlay_expose(reel_gst_element(sink))
        gst_object_unref(sink)
    }

    /// The size of the frames the video sink receives (a window's fitted picture with
    /// ximagesink, `VideoFilter.fit`); nil before the first is negotiated.
    @_spi(Testing) public var videoSinkInputSize: (width: Int, height: Int)? {
        guard let sink = pipeline.sink("video-sink") else { return nil }
        defer { gst_object_unref(sink) }
        var w: Int32 = 0, h: Int32 = 0, fn: Int32 = 0, fd: Int32 = 1
        guard reel_video_sink_size(reel_gst_element(sink), &w, &h, &fn, &fd) != 0 else { return nil }
        return (Int(w), Int(h))
    }

    /// The size of the frames leaving the video filter for playsink's converter (the picture
    /// fitted to the window when the sink cannot scale); nil before the first is negotiated.
    @_spi(Testing) public var videoFilterOutputSize: (width: Int, height: Int)? {
        guard let filter = videoFilter else { return nil }
        var info = GstVideoInfo()
        guard reel_pad_video_info(filter.bin, "src", &info) != 0, info.width > 0 else { return nil }
        return (Int(info.width), Int(info.height))
    }
}
