import CGtk

/// The user_data of every GTK signal handler Reel connects: a weak link to the receiver and a tag.
/// Retained by the handler and released by GLib's destroy notify when the handler (or the object)
/// goes. No callback captures context (swift-frontend 6.3.1 crashes on capturing C closures).
final class SignalBridge: @unchecked Sendable {
    weak var receiver: AnyObject?
    let tag: Int

    private init(receiver: AnyObject, tag: Int) {
        self.receiver = receiver
        self.tag = tag
    }

    private static func retained(_ receiver: AnyObject, _ tag: Int) -> UnsafeMutableRawPointer {
        Unmanaged.passRetained(SignalBridge(receiver: receiver, tag: tag)).toOpaque()
    }

    private static func take(_ data: UnsafeMutableRawPointer?) -> SignalBridge {
        Unmanaged<SignalBridge>.fromOpaque(data!).takeUnretainedValue()
    }

    private static let release: GDestroyNotify = { data in
        Unmanaged<SignalBridge>.fromOpaque(data!).release()
    }

    // GTK emits these on the main thread (the GLib default main context), hence assumeIsolated.

    @discardableResult
    static func connect(_ object: UnsafeMutableRawPointer, _ signal: String, tag: Int, to receiver: SignalReceiver) -> UInt {
        reel_connect_void(object, signal, { instance, data in
            let bridge = SignalBridge.take(data)
            nonisolated(unsafe) let object = instance
            MainActor.assumeIsolated { (bridge.receiver as? SignalReceiver)?.onSignal(bridge.tag, instance: object) }
        }, retained(receiver, tag), release)
    }

    @discardableResult
    static func connectEvent(_ object: UnsafeMutableRawPointer, _ signal: String, tag: Int, to receiver: SignalReceiver) -> UInt {
        reel_connect_event(object, signal, { _, event, data in
            guard let event else { return 0 }
            let bridge = SignalBridge.take(data)
            nonisolated(unsafe) let e = event
            return MainActor.assumeIsolated { (bridge.receiver as? SignalReceiver)?.onEvent(bridge.tag, e) ?? false } ? 1 : 0
        }, retained(receiver, tag), release)
    }

    /// Paints the widget black (the video area's bars and its look before the first frame).
    static func paintBlack(_ object: UnsafeMutableRawPointer) {
        reel_connect_draw(object, { _, cr, _ in
            reel_cairo_paint_rgb(cr, 0, 0, 0)
            return 0
        }, nil, nil)
    }

    static func connectRowActivated(_ object: UnsafeMutableRawPointer, tag: Int, to receiver: SignalReceiver) {
        reel_connect_row_activated(object, { _, path, _, data in
            let bridge = SignalBridge.take(data)
            let index = Int(reel_tree_path_index(path))
            MainActor.assumeIsolated { (bridge.receiver as? SignalReceiver)?.onRowActivated(bridge.tag, index: index) }
        }, retained(receiver, tag), release)
    }

    static func connectDragData(_ object: UnsafeMutableRawPointer, tag: Int, to receiver: SignalReceiver) {
        reel_connect_drag_data_received(object, { _, context, x, y, selection, _, time, data in
            let bridge = SignalBridge.take(data)
            nonisolated(unsafe) let c = context, s = selection
            MainActor.assumeIsolated {
                (bridge.receiver as? SignalReceiver)?.onDragData(bridge.tag, context: c, x: Int(x), y: Int(y), selection: s, time: time)
            }
        }, retained(receiver, tag), release)
    }

    static func connectResponse(_ object: UnsafeMutableRawPointer, tag: Int, to receiver: SignalReceiver) {
        reel_connect_response(object, { dialog, response, data in
            let bridge = SignalBridge.take(data)
            nonisolated(unsafe) let d = UnsafeMutableRawPointer(dialog)
            MainActor.assumeIsolated { (bridge.receiver as? SignalReceiver)?.onResponse(bridge.tag, dialog: d, response: response) }
        }, retained(receiver, tag), release)
    }

    /// A one-shot timer on the main loop; delivers `onSignal(tag, nil)`. Returns the source id.
    @discardableResult
    static func timeout(milliseconds: UInt32, tag: Int, to receiver: SignalReceiver) -> UInt32 {
        g_timeout_add_full(Int32(G_PRIORITY_DEFAULT), milliseconds, { data in
            let bridge = SignalBridge.take(data)
            MainActor.assumeIsolated { (bridge.receiver as? SignalReceiver)?.onSignal(bridge.tag, instance: nil) }
            return 0
        }, retained(receiver, tag), release)
    }
}
