import CGio

/// GIO's VFS and TLS backend, made on the main thread before any other thread can reach GIO.
///
/// Seen (issue 46): with `GSETTINGS_BACKEND=keyfile` (what Flatpak gives sandboxed apps), a window
/// opening a network item hung for ever in 3 runs of 6: the main thread building GTK's first
/// widgets made the VFS (`g_vfs_get_default`, waiting on GIO's module lock) while souphttpsrc's
/// session thread held that lock loading the GNOME proxy module, whose GSettings keyfile backend
/// waited for the VFS's once-init. With the VFS made first, the proxy module's backend finds it
/// made. The settings backend and the proxy resolver are left to their first user: made here
/// too, they changed what GIO's NetworkManager monitor first reported (NetworkPolicyTests saw a
/// fetch while offline), and dconf's backend would autolaunch a bus where there is none.
public enum GIODefaults {
    /// Once per process, on the main thread, before GTK, GStreamer or the gateway start.
    public static func prepare() {
        reel_gio_prepare_defaults()
    }
}
