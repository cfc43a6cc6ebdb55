// Thin shims over GIO's GDBus for Swift (MPRIS, the screensaver): what Swift cannot call
// directly (variadic g_variant_new/g_variant_get). Ownership is stated per function.
// NOTE: SwiftPM does not rebuild Swift modules when only this header changes; see Makefile.
#ifndef REEL_CGIO_SHIM_H
#define REEL_CGIO_SHIM_H
#include <gio/gio.h>

// ---- screensaver (org.freedesktop.ScreenSaver over the session bus) ------------------------------------
/// Inhibit(app, reason) → cookie; 0 when no service answers. Synchronous, bounded by `timeout_ms`.
static inline guint32 reel_screensaver_inhibit(GDBusConnection *bus, const gchar *app, const gchar *reason, gint timeout_ms, GError **error) {
    GVariant *r = g_dbus_connection_call_sync(bus, "org.freedesktop.ScreenSaver", "/org/freedesktop/ScreenSaver",
        "org.freedesktop.ScreenSaver", "Inhibit", g_variant_new("(ss)", app, reason), G_VARIANT_TYPE("(u)"),
        G_DBUS_CALL_FLAGS_NO_AUTO_START, timeout_ms, NULL, error);
    if (r == NULL) return 0;
    guint32 cookie = 0;
    g_variant_get(r, "(u)", &cookie);
    g_variant_unref(r);
    return cookie;
}
static inline gboolean reel_screensaver_uninhibit(GDBusConnection *bus, guint32 cookie, gint timeout_ms, GError **error) {
    GVariant *r = g_dbus_connection_call_sync(bus, "org.freedesktop.ScreenSaver", "/org/freedesktop/ScreenSaver",
        "org.freedesktop.ScreenSaver", "UnInhibit", g_variant_new("(u)", cookie), NULL,
        G_DBUS_CALL_FLAGS_NO_AUTO_START, timeout_ms, NULL, error);
    if (r == NULL) return FALSE;
    g_variant_unref(r);
    return TRUE;
}

#endif
