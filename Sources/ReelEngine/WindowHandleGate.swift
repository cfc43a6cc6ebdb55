import CGStreamer
import CReelFrame

/// Lets a pipeline preroll while the window it will draw into is still being built
/// (`Player.expectWindowHandle`): the video sink's first caps query waits, on its streaming thread,
/// for the window's handle, which is handed to the sink before the query is answered, so the
/// first frame is negotiated at the window's size and drawn in the window, never in one of the
/// sink's own. The main thread never waits; `cancel` (or `bound`) lets a waiting query through
/// without a handle. The waiting is C (`reel_window_gate.c` in CReelFrame): it runs on streaming
/// threads, where only the gate's own mutex is touched.
final class WindowHandleGate {
    private let gate: OpaquePointer
    /// The longest a streaming thread waits for the handle, in milliseconds.
    static let bound: UInt32 = 5000

    init() { gate = reel_window_gate_new(Self.bound) }

    deinit {
        reel_window_gate_cancel(gate)
        reel_window_gate_unref(gate)
    }

    /// Waits at `sink`'s sink pad (a pipeline's video sink); false when it has none.
    @discardableResult
    func attach(to sink: UnsafeMutablePointer<GstElement>) -> Bool {
        reel_window_gate_attach(gate, sink) != 0
    }

    /// The handle is known: every waiting (and later) query hands it to its sink.
    func open(_ handle: UInt, rectangle: VideoOutput.Rectangle? = nil) {
        if let r = rectangle {
            reel_window_gate_open_rect(gate, UInt(handle), r.x, r.y, r.width, r.height)
        } else {
            reel_window_gate_open(gate, UInt(handle))
        }
    }

    /// No handle is coming: waiting queries go on without one.
    func cancel() { reel_window_gate_cancel(gate) }
}
