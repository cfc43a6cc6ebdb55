import CGio

/// GIO's process-wide defaults (the VFS, the GSettings backend, the proxy resolver, the TLS
/// backend), made on the main thread before any other thread can reach GIO.
///
/// Seen (issue 46): with `GSETTINGS_BACKEND=keyfile` (what Flatpak gives sandboxed apps), a window
/// opening a network item hung for ever in 3 runs of 6: the main thread building GTK's first
/// widgets made the VFS (`g_vfs_get_default`, waiting on GIO's module lock) while souphttpsrc's
/// session thread held that lock loading the GNOME proxy module, whose GSettings keyfile backend
/// waited for the VFS's once-init. Made here in one order on one thread, each later use on any
/// thread only reads a finished default. The network monitor (slow: D-Bus) is still made on its own
/// thread afterwards (`NetworkWatcher`): its module is already loaded.
public enum GIODefaults {
    /// Once per process, on the main thread, before GTK, GStreamer or the gateway start.
    public static func prepare() {
        reel_gio_prepare_defaults()
    }
}
