// Thin shims over GIO for Swift (MPRIS and the screensaver over GDBus, the network monitor):
// what Swift cannot call directly (variadic g_variant_new/g_variant_get, g_signal_connect, a
// macro). Ownership is stated per function.
// NOTE: SwiftPM does not rebuild Swift modules when only this header changes; see Makefile.
#ifndef REEL_CGIO_SHIM_H
#define REEL_CGIO_SHIM_H
#include <gio/gio.h>

// ---- GIO's process-wide defaults, made once on the main thread (GIODefaults.swift) ---------------------
/// The VFS (whose once-init loads GIO's modules) and the TLS backend, made here first so that no
/// two threads ever make them together: GLib 2.74 deadlocks when one thread makes the VFS while
/// another loads the proxy module, whose GSettings backend makes the VFS. Transfer none.
static inline void reel_gio_prepare_defaults(void) {
    (void) g_vfs_get_default();
    (void) g_tls_backend_get_default();
}

// ---- screensaver (org.freedesktop.ScreenSaver over the session bus) ------------------------------------
/// Every call here is asynchronous: `done` runs on the main context the call was started from (GTK's main loop).
typedef void (*ReelAsyncReady)(GObject *source, GAsyncResult *result, gpointer user_data);
/// The session bus, without blocking: `reel_session_bus_finish` in `done`.
static inline void reel_session_bus_get(ReelAsyncReady done, gpointer user_data) {
    g_bus_get(G_BUS_TYPE_SESSION, NULL, done, user_data);
}
static inline GDBusConnection *reel_session_bus_finish(GAsyncResult *result, GError **error) {
    return g_bus_get_finish(result, error);
}
/// org.freedesktop.ScreenSaver.Inhibit, without blocking (never auto-starting a service): the
/// cookie comes from `reel_screensaver_inhibit_finish` in `done` (0 and `error` set on failure).
static inline void reel_screensaver_inhibit_start(GDBusConnection *bus, const gchar *app, const gchar *reason, gint timeout_ms,
                                                  ReelAsyncReady done, gpointer user_data) {
    g_dbus_connection_call(bus, "org.freedesktop.ScreenSaver", "/org/freedesktop/ScreenSaver",
        "org.freedesktop.ScreenSaver", "Inhibit", g_variant_new("(ss)", app, reason), G_VARIANT_TYPE("(u)"),
        G_DBUS_CALL_FLAGS_NO_AUTO_START, timeout_ms, NULL, done, user_data);
}
static inline guint32 reel_screensaver_inhibit_finish(GObject *bus, GAsyncResult *result, GError **error) {
    GVariant *r = g_dbus_connection_call_finish(G_DBUS_CONNECTION(bus), result, error);
    if (r == NULL) return 0;
    guint32 cookie = 0;
    g_variant_get(r, "(u)", &cookie);
    g_variant_unref(r);
    return cookie;
}
/// org.freedesktop.ScreenSaver.UnInhibit, without blocking; `reel_screensaver_uninhibit_finish` in `done`.
static inline void reel_screensaver_uninhibit_start(GDBusConnection *bus, guint32 cookie, gint timeout_ms, ReelAsyncReady done, gpointer user_data) {
    g_dbus_connection_call(bus, "org.freedesktop.ScreenSaver", "/org/freedesktop/ScreenSaver",
        "org.freedesktop.ScreenSaver", "UnInhibit", g_variant_new("(u)", cookie), NULL,
        G_DBUS_CALL_FLAGS_NO_AUTO_START, timeout_ms, NULL, done, user_data);
}
static inline gboolean reel_screensaver_uninhibit_finish(GObject *bus, GAsyncResult *result, GError **error) {
    GVariant *r = g_dbus_connection_call_finish(G_DBUS_CONNECTION(bus), result, error);
    if (r == NULL) return FALSE;
    g_variant_unref(r);
    return TRUE;
}

// ---- the network monitor (GNetworkMonitor: NetworkManager, the portal, or netlink) ----------------------
typedef void (*ReelNetworkChangedCallback)(GNetworkMonitor *monitor, gboolean available, gpointer user_data);
typedef void (*ReelNotifyCallback)(GObject *object, GParamSpec *pspec, gpointer user_data);
/// "network-changed"; runs on the main context the monitor was made for. `destroy` releases user_data.
static inline gulong reel_network_monitor_connect_changed(GNetworkMonitor *m, ReelNetworkChangedCallback cb, gpointer user_data, GClosureNotify destroy) {
    return g_signal_connect_data(m, "network-changed", G_CALLBACK(cb), user_data, destroy, 0);
}
/// "notify::<property>" (network-metered, connectivity). `destroy` releases user_data.
static inline gulong reel_object_connect_notify(gpointer object, const gchar *detailed_signal, ReelNotifyCallback cb, gpointer user_data, GClosureNotify destroy) {
    return g_signal_connect_data(object, detailed_signal, G_CALLBACK(cb), user_data, destroy, 0);
}
/// The GType name of the monitor in use ("GNetworkMonitorNM", "GNetworkMonitorNetlink", …): transfer none.
static inline const gchar *reel_type_name(gpointer object) { return G_OBJECT_TYPE_NAME(object); }

// ---- one instance per user session (the app's name; org.freedesktop.Application's Open) ----------------
/// The session bus, blocking (at start, on the main thread, once its address is known). Transfer full; NULL on failure.
static inline GDBusConnection *reel_session_bus_sync(void) { return g_bus_get_sync(G_BUS_TYPE_SESSION, NULL, NULL); }
/// org.freedesktop.DBus.RequestName(name, DO_NOT_QUEUE): 1 this process owns it now, 3 another
/// does, 0 the call failed. The bus releases it when the process ends, however it ends.
static inline guint32 reel_request_name(GDBusConnection *bus, const gchar *name) {
    GVariant *r = g_dbus_connection_call_sync(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "RequestName",
        g_variant_new("(su)", name, 4u /* DBUS_NAME_FLAG_DO_NOT_QUEUE */), G_VARIANT_TYPE("(u)"), G_DBUS_CALL_FLAGS_NONE, 5000, NULL, NULL);
    if (!r) return 0;
    guint32 reply = 0;
    g_variant_get(r, "(u)", &reply);
    g_variant_unref(r);
    return reply;
}
/// org.freedesktop.Application.Open(uris, {"reel-enqueue": enqueue}) on `name` at `path` (the
/// desktop entry spec's form: no hint, which only GApplication's private org.gtk.Application has),
/// blocking up to `timeout_ms`. 1 when the instance answered.
static inline int reel_application_open(GDBusConnection *bus, const gchar *name, const gchar *path, const gchar *const *uris, gboolean enqueue, gint timeout_ms) {
    GVariantBuilder data;
    g_variant_builder_init(&data, G_VARIANT_TYPE("a{sv}"));
    g_variant_builder_add(&data, "{sv}", "reel-enqueue", g_variant_new_boolean(enqueue));
    GVariant *args = g_variant_new("(^asa{sv})", uris, &data);
    GVariant *r = g_dbus_connection_call_sync(bus, name, path, "org.freedesktop.Application", "Open", args, NULL,
                                              G_DBUS_CALL_FLAGS_NO_AUTO_START, timeout_ms, NULL, NULL);
    if (!r) return 0;
    g_variant_unref(r);
    return 1;
}
/// An Open call's arguments: its URIs (g_strfreev) and whether to enqueue.
static inline gchar **reel_application_open_args(GVariant *parameters, gboolean *enqueue) {
    const gchar **uris = NULL;
    GVariant *data = NULL;
    g_variant_get(parameters, "(^a&s@a{sv})", &uris, &data);
    *enqueue = FALSE;
    if (data) {
        g_variant_lookup(data, "reel-enqueue", "b", enqueue);
        g_variant_unref(data);
    }
    gchar **copy = g_strdupv((gchar **)uris);
    g_free(uris);
    return copy;
}

#endif
