import CGStreamer
import CReelFrame
import Foundation
import ReelCore
import Synchronization

/// One-time GStreamer initialisation.
public enum GStreamerRuntime {
    private static let initialised = Mutex(false)

    /// The GStreamer library's version ("1.22.0"), read without initialising it.
    public static var libraryVersion: String {
        var major: guint = 0, minor: guint = 0, micro: guint = 0, nano: guint = 0
        gst_version(&major, &minor, &micro, &nano)
        return "\(major).\(minor).\(micro)"
    }

    public static func ensureInitialised() {
        initialised.withLock { done in
            guard !done else { return }
            gst_init(nil, nil)
            // DASH MPDs whose root tag is long (ffmpeg's live ones) are typed application/xml by
            // GStreamer 1.22's typefinder over HTTP: Reel's own names them (`reel_mpd_typefind.h`).
            reel_mpd_typefind_register()
            GStreamerDebugLog.attach()  // GST_DEBUG=reel*:5
            done = true
            StartupTrace.mark("gst-init")
        }
    }

    /// Starts `ensureInitialised` on a thread of its own, so that reading the plugin registry
    /// overlaps with what the caller does meanwhile (the command line, GTK's start-up); the first
    /// use of GStreamer waits for it (the lock). Once per process.
    public static func initialiseInBackground() {
        let thread = Thread { ensureInitialised() }
        thread.name = "reel-gst-init"
        thread.start()
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
