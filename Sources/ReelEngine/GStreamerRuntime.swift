import CGStreamer
import ReelCore
import Synchronization

/// One-time GStreamer initialisation.
public enum GStreamerRuntime {
    private static let initialised = Mutex(false)

    public static func ensureInitialised() {
        initialised.withLock { done in
            guard !done else { return }
            gst_init(nil, nil)
            done = true
            StartupTrace.mark("gst-init")
        }
    }

    /// Whether an element factory is installed (e.g. "scaletempo", "x264enc").
    public static func hasElement(_ factory: String) -> Bool {
        ensureInitialised()
        guard let f = gst_element_factory_find(factory) else { return false }
        gst_object_unref(UnsafeMutableRawPointer(f))
        return true
    }

    public static var version: String {
        ensureInitialised()
        guard let s = gst_version_string() else { return "unknown" }
        defer { g_free(s) }
        return String(cString: s)
    }
}
