// Thin shims over GTK 3 for Swift: cast macros, g_signal_connect with typed callbacks.
// Ownership is stated per function ("transfer none" = borrowed, "transfer full" = caller unrefs).
// NOTE: SwiftPM does not rebuild Swift modules when only this header changes; see Makefile.
#ifndef REEL_CGTK_SHIM_H
#define REEL_CGTK_SHIM_H
#include <gtk/gtk.h>
#include <gdk/gdkx.h>

static inline GtkWidget *reel_gtk_widget(gpointer p) { return GTK_WIDGET(p); }
static inline GtkWindow *reel_gtk_window(gpointer p) { return GTK_WINDOW(p); }
static inline GtkContainer *reel_gtk_container(gpointer p) { return GTK_CONTAINER(p); }
static inline GtkBox *reel_gtk_box(gpointer p) { return GTK_BOX(p); }

#endif
