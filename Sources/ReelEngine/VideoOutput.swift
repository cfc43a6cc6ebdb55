import CGStreamer

/// Where the video sink draws, per display backend (see docs/ARCHITECTURE.md, "Video output"):
/// - **X11**: the video area's own X11 window (`handle` is its XID); the sink fills it.
/// - **Wayland**: GTK's client-side child windows have no surface of their own, so `handle` is
///   the toplevel's `wl_surface`, `rectangle` the video area's place in it (waylandsink puts a
///   subsurface there, scaled by the compositor), and the sink must draw on GTK's own
///   connection: `waylandDisplay` is given to each new sink as a GstContext before it leaves NULL
///   (a sink with a connection of its own cannot use the window's surface).
/// Every new pipeline's sink gets all three (`prepare`, then `attach`).
public struct VideoOutput {
    struct Rectangle: Equatable, Sendable {
        var x: Int32, y: Int32, width: Int32, height: Int32
    }

    /// The window handle (an XID, or a `wl_surface` pointer); nil until the window is shown.
    var handle: UInt?
    /// GTK's `wl_display` on a Wayland session.
    var waylandDisplay: UInt?
    /// The video area in the handle's window (Wayland only; nil: the whole window).
    var rectangle: Rectangle?
    /// The video area's size in device pixels (`Player.setVideoArea`), for a sink that cannot
    /// scale (`VideoFilter.fit`); nil until a window reports it.
    var area: (width: Int, height: Int)?
    /// Frames wait here for a window still being built (`Player.expectWindowHandle`); nil once
    /// the handle is known.
    var gate: WindowHandleGate?

    /// A new sink, still in NULL: the display it must draw on.
    func prepare(_ sink: UnsafeMutablePointer<GstElement>) {
        guard let waylandDisplay else { return }
        reel_set_wayland_display(sink, UnsafeMutableRawPointer(bitPattern: waylandDisplay))
    }

    /// The window (and place in it) for `sink`; false when the sink has no overlay.
    @discardableResult
    func attach(_ sink: UnsafeMutablePointer<GstElement>) -> Bool {
        guard let handle, reel_set_window_handle(sink, guintptr(handle)) != 0 else { return false }
        place(sink)
        return true
    }

    /// The video area moved or was resized: the sink's place follows.
    func place(_ sink: UnsafeMutablePointer<GstElement>) {
        guard let r = rectangle, r.width > 0, r.height > 0 else { return }
        reel_set_render_rectangle(sink, r.x, r.y, r.width, r.height)
    }
}
