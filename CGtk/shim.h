// Thin shims over GTK 3 for Swift: cast macros, g_signal_connect with typed callbacks.
// Ownership is stated per function ("transfer none" = borrowed, "transfer full" = caller unrefs).
// NOTE: SwiftPM does not rebuild Swift modules when only this header changes; see Makefile.
#ifndef REEL_CGTK_SHIM_H
#define REEL_CGTK_SHIM_H
#include <gtk/gtk.h>
#include <gdk/gdkx.h>
#include <gdk/gdkwayland.h>
#include <gdk/gdkkeysyms.h>

// ---- casts (transfer none) ----------------------------------------------------------------------
static inline GtkWindow *reel_gtk_window(gpointer p) { return GTK_WINDOW(p); }
static inline GtkContainer *reel_gtk_container(gpointer p) { return GTK_CONTAINER(p); }
static inline GtkBox *reel_gtk_box(gpointer p) { return GTK_BOX(p); }
static inline GtkRange *reel_gtk_range(gpointer p) { return GTK_RANGE(p); }
static inline GtkScale *reel_gtk_scale(gpointer p) { return GTK_SCALE(p); }
static inline GtkPopover *reel_gtk_popover(gpointer p) { return GTK_POPOVER(p); }
static inline GtkImage *reel_gtk_image(gpointer p) { return GTK_IMAGE(p); }
/// Popovers without their open/close animation (deprecated in 3.22, still honoured): the seek preview follows the pointer.
static inline void reel_popover_no_transitions(GtkWidget *p) {
    G_GNUC_BEGIN_IGNORE_DEPRECATIONS
    gtk_popover_set_transitions_enabled(GTK_POPOVER(p), FALSE);
    G_GNUC_END_IGNORE_DEPRECATIONS
}
static inline GtkButton *reel_gtk_button(gpointer p) { return GTK_BUTTON(p); }
static inline GtkLabel *reel_gtk_label(gpointer p) { return GTK_LABEL(p); }
static inline GtkSpinner *reel_gtk_spinner(gpointer p) { return GTK_SPINNER(p); }
static inline GtkComboBox *reel_gtk_combo_box(gpointer p) { return GTK_COMBO_BOX(p); }
static inline GtkComboBoxText *reel_gtk_combo_box_text(gpointer p) { return GTK_COMBO_BOX_TEXT(p); }
static inline GtkTreeView *reel_gtk_tree_view(gpointer p) { return GTK_TREE_VIEW(p); }
static inline GtkTreeModel *reel_gtk_tree_model(gpointer p) { return GTK_TREE_MODEL(p); }
static inline GtkScrolledWindow *reel_gtk_scrolled_window(gpointer p) { return GTK_SCROLLED_WINDOW(p); }
static inline GtkDialog *reel_gtk_dialog(gpointer p) { return GTK_DIALOG(p); }
static inline GtkEntry *reel_gtk_entry(gpointer p) { return GTK_ENTRY(p); }
static inline GtkFileChooser *reel_gtk_file_chooser(gpointer p) { return GTK_FILE_CHOOSER(p); }
static inline GtkGrid *reel_gtk_grid(gpointer p) { return GTK_GRID(p); }
static inline GtkToggleButton *reel_gtk_toggle_button(gpointer p) { return GTK_TOGGLE_BUTTON(p); }
static inline GtkSpinButton *reel_gtk_spin_button(gpointer p) { return GTK_SPIN_BUTTON(p); }
static inline GtkStyleProvider *reel_gtk_style_provider(gpointer p) { return GTK_STYLE_PROVIDER(p); }

// ---- properties (g_object_set is variadic) --------------------------------------------------------
static inline void reel_gobject_set_bool(gpointer obj, const gchar *name, gboolean v) { g_object_set(obj, name, v, NULL); }
static inline void reel_gobject_set_string(gpointer obj, const gchar *name, const gchar *v) { g_object_set(obj, name, v, NULL); }
static inline gboolean reel_gobject_get_bool(gpointer obj, const gchar *name) { gboolean v = FALSE; g_object_get(obj, name, &v, NULL); return v; }
static inline void reel_gobject_set_int(gpointer obj, const gchar *name, gint v) { g_object_set(obj, name, v, NULL); }

// ---- signals: typed connects; `data` is released by `destroy` when the handler goes -------------
typedef void (*ReelVoidCallback)(gpointer instance, gpointer data);
typedef gboolean (*ReelEventCallback)(GtkWidget *widget, GdkEvent *event, gpointer data);
typedef gboolean (*ReelDrawCallback)(GtkWidget *widget, cairo_t *cr, gpointer data);
typedef void (*ReelRowActivatedCallback)(GtkTreeView *view, GtkTreePath *path, GtkTreeViewColumn *column, gpointer data);
typedef void (*ReelDragDataCallback)(GtkWidget *widget, GdkDragContext *context, gint x, gint y,
                                     GtkSelectionData *selection, guint info, guint time, gpointer data);
typedef void (*ReelResponseCallback)(GtkDialog *dialog, gint response, gpointer data);

/// "clicked", "value-changed", "changed", "realize", "destroy", "toggled" …
static inline gulong reel_connect_void(gpointer obj, const gchar *signal, ReelVoidCallback cb, gpointer data, GDestroyNotify destroy) {
    return g_signal_connect_data(obj, signal, G_CALLBACK(cb), data, (GClosureNotify)destroy, 0);
}
/// "key-press-event", "button-press-event", "scroll-event", "motion-notify-event", "window-state-event", "delete-event" …
static inline gulong reel_connect_event(gpointer obj, const gchar *signal, ReelEventCallback cb, gpointer data, GDestroyNotify destroy) {
    return g_signal_connect_data(obj, signal, G_CALLBACK(cb), data, (GClosureNotify)destroy, 0);
}
static inline gulong reel_connect_draw(gpointer obj, ReelDrawCallback cb, gpointer data, GDestroyNotify destroy) {
    return g_signal_connect_data(obj, "draw", G_CALLBACK(cb), data, (GClosureNotify)destroy, 0);
}
static inline gulong reel_connect_row_activated(gpointer obj, ReelRowActivatedCallback cb, gpointer data, GDestroyNotify destroy) {
    return g_signal_connect_data(obj, "row-activated", G_CALLBACK(cb), data, (GClosureNotify)destroy, 0);
}
static inline gulong reel_connect_drag_data_received(gpointer obj, ReelDragDataCallback cb, gpointer data, GDestroyNotify destroy) {
    return g_signal_connect_data(obj, "drag-data-received", G_CALLBACK(cb), data, (GClosureNotify)destroy, 0);
}
static inline gulong reel_connect_response(gpointer obj, ReelResponseCallback cb, gpointer data, GDestroyNotify destroy) {
    return g_signal_connect_data(obj, "response", G_CALLBACK(cb), data, (GClosureNotify)destroy, 0);
}

// ---- events (GdkEvent is a union) -----------------------------------------------------------------
/// GTK's animations (CSS transitions, the focus, popovers) on or off for this process, above what
/// the desktop's settings say.
static inline void reel_gtk_set_animations(gboolean on) {
    GtkSettings *s = gtk_settings_get_default();
    if (s) g_object_set(s, "gtk-enable-animations", on, NULL);
}
static inline GdkEventType reel_event_type(GdkEvent *e) { return e->type; }
static inline guint reel_event_keyval(GdkEvent *e) { return e->key.keyval; }
static inline guint reel_event_state(GdkEvent *e) {
    guint s = 0; gdk_event_get_state(e, (GdkModifierType *)&s); return s;
}
static inline guint reel_event_button(GdkEvent *e) { return e->button.button; }
/// Scroll: -1 up, +1 down, 0 sideways; smooth deltas are folded in.
static inline gint reel_event_scroll_direction(GdkEvent *e) {
    if (e->scroll.direction == GDK_SCROLL_UP) return -1;
    if (e->scroll.direction == GDK_SCROLL_DOWN) return 1;
    if (e->scroll.direction == GDK_SCROLL_SMOOTH) return e->scroll.delta_y < 0 ? -1 : (e->scroll.delta_y > 0 ? 1 : 0);
    return 0;
}

// ---- synthetic pointer events (tests: XTEST motion does not reach GTK under Xvfb here) -------
/// One pointer event of `type` at (x, y) of `window` ((rx, ry) on the screen) from `pointer`,
/// handed to GTK as the display's are (`gtk_main_do_event`).
static inline void reel_dispatch_pointer(GdkEventType type, GdkWindow *window, gdouble x, gdouble y, gdouble rx, gdouble ry,
                                         guint button, guint state, GdkDevice *pointer) {
    GdkEvent *e = gdk_event_new(type);
    if (type == GDK_MOTION_NOTIFY) {
        e->motion.window = g_object_ref(window);
        e->motion.x = x; e->motion.y = y;
        e->motion.x_root = rx; e->motion.y_root = ry;
        e->motion.state = state;
        e->motion.time = GDK_CURRENT_TIME;
    } else {
        e->button.window = g_object_ref(window);
        e->button.x = x; e->button.y = y;
        e->button.x_root = rx; e->button.y_root = ry;
        e->button.button = button;
        e->button.state = state;
        e->button.time = GDK_CURRENT_TIME;
    }
    gdk_event_set_device(e, pointer);
    gdk_event_set_source_device(e, pointer);
    gtk_main_do_event(e);
    gdk_event_free(e);
}

/// Puts a pointer event through GTK as if it came from the X server: `type` is GDK_MOTION_NOTIFY,
/// GDK_BUTTON_PRESS or GDK_BUTTON_RELEASE; (x, y) are relative to the widget's GdkWindow.
static inline void reel_widget_send_pointer(GtkWidget *w, GdkEventType type, gdouble x, gdouble y, guint button, guint state) {
    GdkWindow *win = gtk_widget_get_window(w);
    if (win == NULL) return;
    GdkDevice *pointer = gdk_seat_get_pointer(gdk_display_get_default_seat(gtk_widget_get_display(w)));
    gint wx = 0, wy = 0;
    if (!gtk_widget_get_has_window(w)) { GtkAllocation a; gtk_widget_get_allocation(w, &a); wx = a.x; wy = a.y; }
    gint ox = 0, oy = 0;
    gdk_window_get_origin(win, &ox, &oy);
    reel_dispatch_pointer(type, win, x + wx, y + wy, ox + x + wx, oy + y + wy, button, state, pointer);
}
static inline guint reel_button1_mask(void) { return GDK_BUTTON1_MASK; }
/// Like reel_widget_send_pointer, but into the widget's own input-only child window when it has
/// one (GtkRange: its slider takes events there), with (x, y) relative to the widget.
static inline void reel_widget_send_pointer_input(GtkWidget *w, GdkEventType type, gdouble x, gdouble y, guint button, guint state) {
    GdkWindow *parent = gtk_widget_get_window(w);
    if (parent == NULL) return;
    GdkWindow *target = NULL;
    for (GList *l = gdk_window_peek_children(parent); l != NULL; l = l->next) {
        gpointer owner = NULL;
        gdk_window_get_user_data(GDK_WINDOW(l->data), &owner);
        if (owner == (gpointer)w) { target = GDK_WINDOW(l->data); break; }
    }
    if (target == NULL) { reel_widget_send_pointer(w, type, x, y, button, state); return; }
    GtkAllocation a; gtk_widget_get_allocation(w, &a);
    gint tx = 0, ty = 0; gdk_window_get_position(target, &tx, &ty);
    gdouble lx = x + a.x - tx, ly = y + a.y - ty;   /* into the input window's coordinates */
    GdkDisplay *display = gtk_widget_get_display(w);
    GdkDevice *pointer = gdk_seat_get_pointer(gdk_display_get_default_seat(display));
    gint ox = 0, oy = 0; gdk_window_get_origin(target, &ox, &oy);
    GdkEvent *e = gdk_event_new(type);
    if (type == GDK_MOTION_NOTIFY) {
        e->motion.window = g_object_ref(target);
        e->motion.x = lx; e->motion.y = ly; e->motion.x_root = ox + lx; e->motion.y_root = oy + ly;
        e->motion.state = state; e->motion.time = GDK_CURRENT_TIME;
    } else {
        e->button.window = g_object_ref(target);
        e->button.x = lx; e->button.y = ly; e->button.x_root = ox + lx; e->button.y_root = oy + ly;
        e->button.button = button; e->button.state = state; e->button.time = GDK_CURRENT_TIME;
    }
    gdk_event_set_device(e, pointer);
    gdk_event_set_source_device(e, pointer);
    gtk_main_do_event(e);
    gdk_event_free(e);
}

// ---- X11 ------------------------------------------------------------------------------------------
/// The X11 window id of a realized widget's GdkWindow, made native first. 0 when not on X11.
static inline gulong reel_widget_xid(GtkWidget *w) {
    GdkWindow *win = gtk_widget_get_window(w);
    if (win == NULL || !GDK_IS_X11_WINDOW(win)) return 0;
    if (!gdk_window_ensure_native(win)) return 0;
    gulong xid = (gulong)gdk_x11_window_get_xid(win);
    // Other X connections (the video sink's) must see the window: flush GDK's queued requests.
    gdk_display_sync(gdk_window_get_display(win));
    return xid;
}
// ---- Wayland ---------------------------------------------------------------------------------------
/// Whether GDK runs on its Wayland backend (the default display is a Wayland one).
static inline gboolean reel_gdk_is_wayland(void) {
    GdkDisplay *d = gdk_display_get_default();
    return d != NULL && GDK_IS_WAYLAND_DISPLAY(d);
}
/// The default display's wl_display (transfer none), NULL when not on Wayland.
static inline gpointer reel_wayland_display(void) {
    GdkDisplay *d = gdk_display_get_default();
    return d != NULL && GDK_IS_WAYLAND_DISPLAY(d) ? (gpointer)gdk_wayland_display_get_wl_display(d) : NULL;
}
/// The wl_surface of a realized widget's toplevel window (a video sink's subsurface goes on it),
/// 0 when not on Wayland.
static inline guintptr reel_widget_wl_surface(GtkWidget *w) {
    GtkWidget *top = gtk_widget_get_toplevel(w);
    GdkWindow *win = top ? gtk_widget_get_window(top) : NULL;
    if (win == NULL || !GDK_IS_WAYLAND_WINDOW(win)) return 0;
    return (guintptr)gdk_wayland_window_get_wl_surface(win);
}
/// A widget's place in its toplevel (the toplevel widget's coordinates, which on Wayland are its
/// surface's: they include the client-side shadow).
static inline gboolean reel_widget_position_in_toplevel(GtkWidget *w, gint *x, gint *y) {
    GtkWidget *top = gtk_widget_get_toplevel(w);
    return top != NULL && gtk_widget_translate_coordinates(w, top, 0, 0, x, y);
}
/// Whether a window manager that handles _NET_WM_STATE_FULLSCREEN runs on the widget's screen.
static inline gboolean reel_wm_supports_fullscreen(GtkWidget *w) {
    GdkScreen *s = gtk_widget_get_screen(w);
    if (s == NULL || !GDK_IS_X11_SCREEN(s)) return TRUE;
    return gdk_x11_screen_supports_net_wm_hint(s, gdk_atom_intern_static_string("_NET_WM_STATE_FULLSCREEN"));
}
/// The geometry of the monitor the widget is on.
static inline void reel_widget_monitor_geometry(GtkWidget *w, gint *x, gint *y, gint *width, gint *height) {
    GdkDisplay *d = gtk_widget_get_display(w);
    GdkWindow *win = gtk_widget_get_window(w);
    GdkMonitor *m = win ? gdk_display_get_monitor_at_window(d, win) : gdk_display_get_primary_monitor(d);
    if (m == NULL) m = gdk_display_get_monitor(d, 0);
    GdkRectangle r = {0, 0, 0, 0};
    if (m) gdk_monitor_get_geometry(m, &r);
    *x = r.x; *y = r.y; *width = r.width; *height = r.height;
}

// ---- drawing --------------------------------------------------------------------------------------
static inline void reel_cairo_paint_rgb(cairo_t *cr, double r, double g, double b) {
    cairo_set_source_rgb(cr, r, g, b);
    cairo_paint(cr);
}

// ---- the video area: black, or an audio file's cover ----------------------------------------------
// Draws the video area: black, then its picture (reel_video_area_set_picture), if any, as large as
// fits, centred. A video sink draws over it (X11: its own window; Wayland: a subsurface above).
static gboolean reel_video_area_draw(GtkWidget *w, cairo_t *cr, gpointer data) {
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_paint(cr);
    GdkPixbuf *pb = g_object_get_data(G_OBJECT(w), "reel-picture");
    int aw = gtk_widget_get_allocated_width(w), ah = gtk_widget_get_allocated_height(w);
    if (pb == NULL || aw <= 0 || ah <= 0) return FALSE;
    int pw = gdk_pixbuf_get_width(pb), ph = gdk_pixbuf_get_height(pb);
    if (pw <= 0 || ph <= 0) return FALSE;
    double scale = MIN((double)aw / pw, (double)ah / ph);
    cairo_save(cr);
    cairo_translate(cr, (aw - pw * scale) / 2, (ah - ph * scale) / 2);
    cairo_scale(cr, scale, scale);
    gdk_cairo_set_source_pixbuf(cr, pb, 0, 0);
    cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD);
    cairo_paint(cr);
    cairo_restore(cr);
    return FALSE;
}
static inline void reel_video_area_connect_draw(GtkWidget *w) {
    g_signal_connect(w, "draw", G_CALLBACK(reel_video_area_draw), NULL);
}
// Shows `bytes` (an image file's contents) in the video area, or nothing (NULL). FALSE when the
// bytes are not an image GdkPixbuf reads (then nothing is shown).
static inline gboolean reel_video_area_set_picture(GtkWidget *w, const guint8 *bytes, gsize length) {
    GdkPixbuf *pb = NULL;
    if (bytes != NULL && length > 0) {
        GdkPixbufLoader *loader = gdk_pixbuf_loader_new();
        if (gdk_pixbuf_loader_write(loader, bytes, length, NULL) && gdk_pixbuf_loader_close(loader, NULL)) {
            GdkPixbuf *read = gdk_pixbuf_loader_get_pixbuf(loader);  // transfer none
            if (read) pb = g_object_ref(read);
        } else {
            gdk_pixbuf_loader_close(loader, NULL);
        }
        g_object_unref(loader);
    }
    g_object_set_data_full(G_OBJECT(w), "reel-picture", pb, pb ? g_object_unref : NULL);
    gtk_widget_queue_draw(w);
    return bytes == NULL || pb != NULL;
}

// ---- window capture -------------------------------------------------------------------------------
/// Writes what the widget's toplevel GdkWindow shows on screen (including native child windows
/// such as the video) to a PNG file. Returns FALSE and sets *error on failure.
static inline gboolean reel_capture_window_png(GtkWidget *w, const gchar *path, GError **error) {
    GdkWindow *win = gtk_widget_get_window(w);
    if (win == NULL) { g_set_error_literal(error, G_FILE_ERROR, G_FILE_ERROR_FAILED, "the window is not realized"); return FALSE; }
    gint width = gdk_window_get_width(win), height = gdk_window_get_height(win);
    GdkPixbuf *pb = gdk_pixbuf_get_from_window(win, 0, 0, width, height);  // transfer full
    if (pb == NULL) { g_set_error_literal(error, G_FILE_ERROR, G_FILE_ERROR_FAILED, "the window could not be read"); return FALSE; }
    gboolean ok = gdk_pixbuf_save(pb, path, "png", error, NULL);
    g_object_unref(pb);
    return ok;
}
/// Draws a video frame (PNG bytes) into the rectangle (x, y, w, h) of `pb`, scaled to fit and
/// centred as the sink shows it.
static inline void reel_pixbuf_compose_frame(GdkPixbuf *pb, const guint8 *png, gsize length, gint x, gint y, gint rw, gint rh) {
    if (png == NULL || length == 0 || rw <= 0 || rh <= 0) return;
    gint width = gdk_pixbuf_get_width(pb), height = gdk_pixbuf_get_height(pb);
    GdkPixbufLoader *loader = gdk_pixbuf_loader_new();
    if (gdk_pixbuf_loader_write(loader, png, length, NULL) && gdk_pixbuf_loader_close(loader, NULL)) {
        GdkPixbuf *frame = gdk_pixbuf_loader_get_pixbuf(loader);  // transfer none
        gint fw = gdk_pixbuf_get_width(frame), fh = gdk_pixbuf_get_height(frame);
        double s = MIN((double)rw / fw, (double)rh / fh);
        gint dw = MAX(1, (gint)(fw * s + 0.5)), dh = MAX(1, (gint)(fh * s + 0.5));
        gint dx = x + (rw - dw) / 2, dy = y + (rh - dh) / 2;
        // Clipped to the window.
        gint cx = MAX(dx, 0), cy = MAX(dy, 0);
        gint cw = MIN(dx + dw, width) - cx, ch = MIN(dy + dh, height) - cy;
        if (cw > 0 && ch > 0) {
            gdk_pixbuf_composite(frame, pb, cx, cy, cw, ch, dx, dy, (double)dw / fw, (double)dh / fh, GDK_INTERP_BILINEAR, 255);
        }
    }
    g_object_unref(loader);
}
/// The window drawn from its widget tree (`gtk_widget_draw` into an image at the window's scale:
/// what GTK shows, without reading the window back), with a video frame (PNG bytes, or none)
/// drawn into the rectangle (x, y, w, h, in the toplevel's coordinates). On Wayland the video is
/// on a subsurface that a client cannot read back, and a Wayland window's own pixels are not
/// readable outside a paint cycle either (gdk_pixbuf_get_from_window returns a transparent image):
/// the capture is composed.
static inline gboolean reel_capture_widget_png_with_frame(GtkWidget *w, const gchar *path, const guint8 *png, gsize length,
                                                          gint x, gint y, gint rw, gint rh, GError **error) {
    GdkWindow *win = gtk_widget_get_window(w);
    if (win == NULL) { g_set_error_literal(error, G_FILE_ERROR, G_FILE_ERROR_FAILED, "the window is not realized"); return FALSE; }
    gint scale = MAX(1, gdk_window_get_scale_factor(win));
    gint width = gdk_window_get_width(win) * scale, height = gdk_window_get_height(win) * scale;
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height);
    cairo_t *cr = cairo_create(surface);
    cairo_scale(cr, scale, scale);
    gtk_widget_draw(w, cr);
    cairo_destroy(cr);
    cairo_surface_flush(surface);
    GdkPixbuf *pb = gdk_pixbuf_get_from_surface(surface, 0, 0, width, height);  // transfer full
    cairo_surface_destroy(surface);
    if (pb == NULL) { g_set_error_literal(error, G_FILE_ERROR, G_FILE_ERROR_FAILED, "the window could not be drawn"); return FALSE; }
    reel_pixbuf_compose_frame(pb, png, length, x * scale, y * scale, rw * scale, rh * scale);
    gboolean ok = gdk_pixbuf_save(pb, path, "png", error, NULL);
    g_object_unref(pb);
    return ok;
}

// ---- lists ----------------------------------------------------------------------------------------
/// The playlist model: one column, the row's tooltip (markup; NULL for a row without one).
/// What a row shows is not stored: the view's columns ask the panel as they draw
/// (`reel_tree_view_add_owned_text_column`), so a row costs GTK a few dozen bytes, not a copy of
/// its texts (issue 51: 100,000 rows). Transfer full.
static inline GtkListStore *reel_playlist_store_new(void) {
    return gtk_list_store_new(1, G_TYPE_STRING);
}
/// Every column at a fixed width (`widths`, one per column; an expanding column takes the rest)
/// and rows of one height: GTK then measures no row to lay out the list (100,000 rows).
static inline void reel_tree_view_fixed_rows(GtkTreeView *view, const gint *widths, gint count) {
    for (gint i = 0; i < count; i++) {
        GtkTreeViewColumn *c = gtk_tree_view_get_column(view, i);
        if (c == NULL) continue;
        gtk_tree_view_column_set_sizing(c, GTK_TREE_VIEW_COLUMN_FIXED);
        gtk_tree_view_column_set_fixed_width(c, widths[i]);
    }
    gtk_tree_view_set_fixed_height_mode(view, TRUE);
}
/// Row `index`'s tooltip set (its texts are drawn anew: the view is told the row changed);
/// nothing when there is no such row.
static inline void reel_playlist_store_set_row(GtkListStore *store, gint index, const gchar *tooltip) {
    GtkTreeIter iter;
    if (!gtk_tree_model_iter_nth_child(GTK_TREE_MODEL(store), &iter, NULL, index)) return;
    gtk_list_store_set(store, &iter, 0, tooltip, -1);
}
/// A row inserted at `index` (appended past the end).
static inline void reel_playlist_store_insert_row(GtkListStore *store, gint index, const gchar *tooltip) {
    GtkTreeIter iter;
    gtk_list_store_insert_with_values(store, &iter, index, 0, tooltip, -1);
}
/// Removes `count` rows from `index` on.
static inline void reel_playlist_store_remove_rows(GtkListStore *store, gint index, gint count) {
    GtkTreeIter iter;
    if (count <= 0 || !gtk_tree_model_iter_nth_child(GTK_TREE_MODEL(store), &iter, NULL, index)) return;
    for (gint i = 0; i < count; i++) {
        if (!gtk_list_store_remove(store, &iter)) break;  // iter moves to the next row
    }
}
/// The text column `column` of the view draws in row `index`, as a screen reader reads it (the
/// column's cell data applied to its renderer), or NULL. Transfer full: g_free.
static inline gchar *reel_tree_view_cell_text(GtkTreeView *view, gint column, gint index) {
    GtkTreeViewColumn *c = gtk_tree_view_get_column(view, column);
    GtkTreeModel *model = gtk_tree_view_get_model(view);
    GtkTreeIter iter;
    if (c == NULL || model == NULL || !gtk_tree_model_iter_nth_child(model, &iter, NULL, index)) return NULL;
    gtk_tree_view_column_cell_set_cell_data(c, model, &iter, FALSE, FALSE);
    GList *cells = gtk_cell_layout_get_cells(GTK_CELL_LAYOUT(c));
    gchar *text = NULL;
    if (cells != NULL) g_object_get(cells->data, "text", &text, NULL);
    g_list_free(cells);
    return text;
}
static inline gint reel_playlist_store_count(GtkListStore *store) { return gtk_tree_model_iter_n_children(GTK_TREE_MODEL(store), NULL); }
static inline void reel_tree_view_scroll_now(GtkTreeView *view, gint index) {
    GtkTreeModel *model = gtk_tree_view_get_model(view);
    if (model == NULL || index < 0 || index >= gtk_tree_model_iter_n_children(model, NULL)) return;
    GtkTreePath *path = gtk_tree_path_new_from_indices(index, -1);
    gtk_tree_view_scroll_to_cell(view, path, NULL, TRUE, 0.5, 0);
    gtk_tree_path_free(path);
}
/// The scroll asked for before the view had its height, done once it has it: GTK keeps a pending
/// scroll for an unrealized view but applies it with the height of its first, partial layout (the
/// row lands at the top, not the middle).
static inline void reel_tree_view_scroll_when_laid_out(GtkWidget *widget, GdkRectangle *allocation, gpointer data) {
    (void)data;
    if (allocation->height <= 1 || !gtk_widget_get_mapped(widget)) return;
    gint index = GPOINTER_TO_INT(g_object_get_data(G_OBJECT(widget), "reel-pending-scroll")) - 1;
    g_signal_handlers_disconnect_by_func(widget, (gpointer)reel_tree_view_scroll_when_laid_out, NULL);
    g_object_set_data(G_OBJECT(widget), "reel-pending-scroll", NULL);
    reel_tree_view_scroll_now(GTK_TREE_VIEW(widget), index);
}
/// Scrolls the view to show row `index` in its middle (nothing when there is no such row); a view
/// not yet shown scrolls there once it is laid out.
static inline void reel_tree_view_scroll_to_row(GtkTreeView *view, gint index) {
    GtkWidget *widget = GTK_WIDGET(view);
    if (gtk_widget_get_mapped(widget) && gtk_widget_get_allocated_height(widget) > 1) {
        reel_tree_view_scroll_now(view, index);
        return;
    }
    if (g_object_get_data(G_OBJECT(widget), "reel-pending-scroll") == NULL)
        g_signal_connect_after(widget, "size-allocate", G_CALLBACK(reel_tree_view_scroll_when_laid_out), NULL);
    g_object_set_data(G_OBJECT(widget), "reel-pending-scroll", GINT_TO_POINTER(index + 1));
}
/// Whether row `index` is in the view's visible range (FALSE while it is not laid out).
static inline gboolean reel_tree_view_row_in_view(GtkTreeView *view, gint index) {
    GtkTreePath *start = NULL, *end = NULL;
    if (!gtk_widget_get_mapped(GTK_WIDGET(view)) || !gtk_tree_view_get_visible_range(view, &start, &end)) return FALSE;
    gint first = gtk_tree_path_get_indices(start)[0], last = gtk_tree_path_get_indices(end)[0];
    gtk_tree_path_free(start);
    gtk_tree_path_free(end);
    return index >= first && index <= last;
}
/// The rows the view shows now, first and last (-1, -1: none).
static inline void reel_tree_view_visible_rows(GtkTreeView *view, gint *first, gint *last) {
    GtkTreePath *start = NULL, *end = NULL;
    *first = -1; *last = -1;
    if (!gtk_widget_get_mapped(GTK_WIDGET(view)) || !gtk_tree_view_get_visible_range(view, &start, &end)) return;
    *first = gtk_tree_path_get_indices(start)[0];
    *last = gtk_tree_path_get_indices(end)[0];
    gtk_tree_path_free(start);
    gtk_tree_path_free(end);
}
/// Row `index`'s rectangle across the whole view, in the view's widget coordinates.
static inline void reel_tree_view_row_rect(GtkTreeView *view, gint index, gint *x, gint *y, gint *width, gint *height) {
    GtkTreePath *path = gtk_tree_path_new_from_indices(index, -1);
    GdkRectangle r = {0, 0, 0, 0};
    gtk_tree_view_get_background_area(view, path, NULL, &r);
    gtk_tree_path_free(path);
    gtk_tree_view_convert_bin_window_to_widget_coords(view, r.x, r.y, x, y);
    *x = 0;
    *width = gtk_widget_get_allocated_width(GTK_WIDGET(view));
    *height = r.height;
}
static inline gint reel_tree_view_column_count(GtkTreeView *view) { return (gint)gtk_tree_view_get_n_columns(view); }
/// What row `row` shows in column `column`: its text (transfer full, g_free; NULL: nothing) and
/// the text's weight (set it; 400 when left).
typedef gchar *(*ReelRowText)(gpointer owner, gint row, gint column, gint *weight);
typedef struct { ReelRowText text; gpointer owner; gint column; } ReelRowTextSource;
static inline void reel_row_text_cell_data(GtkTreeViewColumn *c, GtkCellRenderer *r, GtkTreeModel *model, GtkTreeIter *iter, gpointer data) {
    ReelRowTextSource *source = data;
    GtkTreePath *path = gtk_tree_model_get_path(model, iter);
    gint row = (path != NULL && gtk_tree_path_get_depth(path) > 0) ? gtk_tree_path_get_indices(path)[0] : -1;
    gtk_tree_path_free(path);
    gint weight = 400;
    gchar *text = row >= 0 ? source->text(source->owner, row, source->column, &weight) : NULL;
    g_object_set(r, "text", text != NULL ? text : "", "weight", weight, NULL);
    g_free(text);
}
/// A text column whose cells `text` fills as they are drawn (`owner` and `column` passed back;
/// the owner outlives the view). Transfer none (the view owns it).
static inline void reel_tree_view_add_owned_text_column(GtkTreeView *view, const gchar *title, gint column, gboolean expand, gfloat xalign,
                                                       ReelRowText text, gpointer owner) {
    GtkCellRenderer *r = gtk_cell_renderer_text_new();
    g_object_set(r, "xalign", xalign, NULL);
    if (expand) g_object_set(r, "ellipsize", PANGO_ELLIPSIZE_END, NULL);
    GtkTreeViewColumn *c = gtk_tree_view_column_new();
    gtk_tree_view_column_set_title(c, title);
    gtk_tree_view_column_pack_start(c, r, TRUE);
    ReelRowTextSource *source = g_new(ReelRowTextSource, 1);
    source->text = text;
    source->owner = owner;
    source->column = column;
    gtk_tree_view_column_set_cell_data_func(c, r, reel_row_text_cell_data, source, g_free);
    gtk_tree_view_column_set_expand(c, expand);
    gtk_tree_view_append_column(view, c);
}
/// The index of the first path component, or -1.
static inline gint reel_tree_path_index(GtkTreePath *path) {
    if (path == NULL || gtk_tree_path_get_depth(path) < 1) return -1;
    return gtk_tree_path_get_indices(path)[0];
}
/// The selected row of a single-selection tree view, or -1.
static inline gint reel_tree_view_selected_index(GtkTreeView *view) {
    GtkTreeModel *model = NULL;
    GList *rows = gtk_tree_selection_get_selected_rows(gtk_tree_view_get_selection(view), &model);
    gint index = rows ? reel_tree_path_index((GtkTreePath *)rows->data) : -1;
    g_list_free_full(rows, (GDestroyNotify)gtk_tree_path_free);
    return index;
}
static inline void reel_tree_view_select_index(GtkTreeView *view, gint index) {
    GtkTreePath *p = gtk_tree_path_new_from_indices(index, -1);
    gtk_tree_selection_select_path(gtk_tree_view_get_selection(view), p);
    gtk_tree_path_free(p);
}
/// The row a drop at (x, y) lands before (0…count): for reordering the playlist.
static inline gint reel_tree_view_drop_index(GtkTreeView *view, gint x, gint y, gint count) {
    GtkTreePath *path = NULL;
    GtkTreeViewDropPosition pos;
    if (!gtk_tree_view_get_dest_row_at_pos(view, x, y, &path, &pos)) return count;
    gint index = reel_tree_path_index(path);
    gtk_tree_path_free(path);
    if (pos == GTK_TREE_VIEW_DROP_AFTER || pos == GTK_TREE_VIEW_DROP_INTO_OR_AFTER) index += 1;
    return index;
}
/// A pointer event's position in the tree view's widget coordinates (its rows' events come on
/// its bin window, whose origin is below the headers).
static inline void reel_tree_view_event_point(GtkTreeView *view, GdkEvent *e, gint *x, gint *y) {
    gdouble ex = 0, ey = 0;
    gdk_event_get_coords(e, &ex, &ey);
    if (e->any.window == gtk_tree_view_get_bin_window(view)) gtk_tree_view_convert_bin_window_to_widget_coords(view, (gint)ex, (gint)ey, x, y);
    else { *x = (gint)ex; *y = (gint)ey; }
}
/// The row at widget point (x, y), or -1.
static inline gint reel_tree_view_row_at_point(GtkTreeView *view, gint x, gint y) {
    gint bx = 0, by = 0;
    gtk_tree_view_convert_widget_to_bin_window_coords(view, x, y, &bx, &by);
    GtkTreePath *path = NULL;
    if (!gtk_tree_view_get_path_at_pos(view, bx, by, &path, NULL, NULL, NULL)) return -1;
    gint index = reel_tree_path_index(path);
    gtk_tree_path_free(path);
    return index;
}
/// Draws GTK's drop line where a row dragged to widget point (x, y) would go (before or after the
/// row there); `show` 0 takes it away.
static inline void reel_tree_view_show_drop(GtkTreeView *view, gint x, gint y, int show) {
    GtkTreePath *path = NULL;
    GtkTreeViewDropPosition pos = GTK_TREE_VIEW_DROP_BEFORE;
    if (show && gtk_tree_view_get_dest_row_at_pos(view, x, y, &path, &pos)) {
        if (pos == GTK_TREE_VIEW_DROP_INTO_OR_BEFORE) pos = GTK_TREE_VIEW_DROP_BEFORE;
        if (pos == GTK_TREE_VIEW_DROP_INTO_OR_AFTER) pos = GTK_TREE_VIEW_DROP_AFTER;
        gtk_tree_view_set_drag_dest_row(view, path, pos);
        gtk_tree_path_free(path);
    } else {
        gtk_tree_view_set_drag_dest_row(view, NULL, GTK_TREE_VIEW_DROP_BEFORE);
    }
}
static inline int reel_drag_passed_threshold(GtkWidget *w, gint x1, gint y1, gint x2, gint y2) { return gtk_drag_check_threshold(w, x1, y1, x2, y2); }

/// The tooltip GTK shows for the row under widget point (x, y) of a tree view whose tooltip
/// column is `column` (the same lookup GTK's tooltip query makes), or NULL. Transfer full: g_free.
static inline gchar *reel_tree_view_tooltip_at(GtkTreeView *view, gint x, gint y, gint column) {
    GtkTreeModel *model = NULL;
    GtkTreePath *path = NULL;
    GtkTreeIter iter;
    gchar *text = NULL;
    if (!gtk_tree_view_get_tooltip_context(view, &x, &y, FALSE, &model, &path, &iter)) return NULL;
    gtk_tree_model_get(model, &iter, column, &text, -1);
    gtk_tree_path_free(path);
    return text;
}

/// The height of the first row (0 when empty).
static inline gint reel_tree_view_row_height(GtkTreeView *view) {
    GtkTreePath *p = gtk_tree_path_new_first();
    GdkRectangle r = {0, 0, 0, 0};
    gtk_tree_view_get_background_area(view, p, NULL, &r);
    gtk_tree_path_free(p);
    return r.height;
}

// ---- drag and drop of files and URLs ---------------------------------------------------------------
/// `w` takes drops of URI lists and text. With `portal`, GTK's own URI targets: they add the
/// document portal's file transfer when the portal answers, which GTK asks synchronously on the
/// session bus (and without a bus, GLib autolaunches a dbus-daemon to ask); without, text/uri-list
/// alone, nothing asked. A later call replaces the targets of an earlier one.
static inline void reel_widget_accept_uri_drops(GtkWidget *w, gboolean portal) {
    if (gtk_drag_dest_get_target_list(w) == NULL) gtk_drag_dest_set(w, GTK_DEST_DEFAULT_ALL, NULL, 0, GDK_ACTION_COPY);
    GtkTargetList *list = gtk_target_list_new(NULL, 0);
    if (portal) gtk_target_list_add_uri_targets(list, 0);
    else gtk_target_list_add(list, gdk_atom_intern_static_string("text/uri-list"), 0, 0);
    gtk_target_list_add_text_targets(list, 0);
    gtk_drag_dest_set_target_list(w, list);
    gtk_target_list_unref(list);
}
/// The drop targets `w` takes, by name, newline-separated (tests). Transfer full: g_free.
static inline gchar *reel_widget_drop_targets(GtkWidget *w) {
    GtkTargetList *list = gtk_drag_dest_get_target_list(w);
    GString *out = g_string_new(NULL);
    if (list != NULL) {
        gint n = 0;
        GtkTargetEntry *entries = gtk_target_table_new_from_list(list, &n);
        for (gint i = 0; i < n; i++) g_string_append_printf(out, "%s%s", i ? "\n" : "", entries[i].target);
        gtk_target_table_free(entries, n);
    }
    return g_string_free(out, FALSE);
}
/// URIs from a drop (text/uri-list, or plain text lines). Transfer full: free with g_strfreev.
static inline gchar **reel_selection_uris(GtkSelectionData *sel) {
    gchar **uris = gtk_selection_data_get_uris(sel);
    if (uris && uris[0]) return uris;
    g_strfreev(uris);
    guchar *text = gtk_selection_data_get_text(sel);
    if (text == NULL) return NULL;
    gchar **lines = g_strsplit_set((const gchar *)text, "\r\n", -1);
    g_free(text);
    return lines;
}
/// Ends a drop; a NULL context (a test's simulated drop, no drag took place) is ignored.
static inline void reel_drag_finish(GdkDragContext *ctx, gboolean success, guint time) { if (ctx) gtk_drag_finish(ctx, success, FALSE, time); }
/// Tests: delivers `data` as a drop of type `target` ("text/uri-list", "text/plain;charset=utf-8")
/// to `w`'s "drag-data-received" handlers. The GtkSelectionData is real, made by GTK through a
/// private X selection this process owns (XTEST cannot drive an XDND drag under Xvfb here); the
/// drag context is NULL, as no drag took place. Returns FALSE when no data came back.
static void reel_test_drop_get(GtkClipboard *c, GtkSelectionData *sel, guint info, gpointer data) {
    (void)c; (void)info;
    gtk_selection_data_set(sel, gtk_selection_data_get_target(sel), 8, (const guchar *)data, (gint)strlen((const char *)data));
}
static void reel_test_drop_clear(GtkClipboard *c, gpointer data) { (void)c; g_free(data); }
static inline gboolean reel_widget_simulate_drop(GtkWidget *w, const gchar *target, const gchar *text) {
    GtkClipboard *clipboard = gtk_clipboard_get_for_display(gtk_widget_get_display(w), gdk_atom_intern_static_string("REEL_TEST_DROP"));
    GtkTargetEntry entry = { (gchar *)target, 0, 0 };
    if (!gtk_clipboard_set_with_data(clipboard, &entry, 1, reel_test_drop_get, reel_test_drop_clear, g_strdup(text))) return FALSE;
    GtkSelectionData *sel = gtk_clipboard_wait_for_contents(clipboard, gdk_atom_intern(target, FALSE));
    gtk_clipboard_clear(clipboard);
    if (sel == NULL) return FALSE;
    g_signal_emit_by_name(w, "drag-data-received", NULL, 10, 10, sel, 0, (guint)GDK_CURRENT_TIME);
    gtk_selection_data_free(sel);
    return TRUE;
}

// ---- dialogs ----------------------------------------------------------------------------------------
/// A modal "Open Files" chooser (multiple selection). Transfer none (floating toplevel; destroy it).
static inline GtkWidget *reel_open_files_dialog(GtkWindow *parent, const gchar *title, const gchar *cancel, const gchar *open) {
    GtkWidget *d = gtk_file_chooser_dialog_new(title, parent, GTK_FILE_CHOOSER_ACTION_OPEN,
                                               cancel, GTK_RESPONSE_CANCEL, open, GTK_RESPONSE_ACCEPT, NULL);
    gtk_file_chooser_set_select_multiple(GTK_FILE_CHOOSER(d), TRUE);
    return d;
}
// A chooser of one folder (Open Folder…): its media files join the queue.
static inline GtkWidget *reel_open_folder_dialog(GtkWindow *parent, const gchar *title, const gchar *cancel, const gchar *open) {
    return gtk_file_chooser_dialog_new(title, parent, GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                                       cancel, GTK_RESPONSE_CANCEL, open, GTK_RESPONSE_ACCEPT, NULL);
}
static inline GtkWidget *reel_dialog_new(GtkWindow *parent, const gchar *title, const gchar *cancel, const gchar *accept) {
    GtkWidget *d = gtk_dialog_new_with_buttons(title, parent, GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                               cancel, GTK_RESPONSE_CANCEL, accept, GTK_RESPONSE_ACCEPT, NULL);
    gtk_dialog_set_default_response(GTK_DIALOG(d), GTK_RESPONSE_ACCEPT);
    return d;
}
static inline gint reel_response_accept(void) { return GTK_RESPONSE_ACCEPT; }

// ---- recent files ----------------------------------------------------------------------------------
// transfer full: a recent manager on `filename` (NULL: the desktop's, $XDG_DATA_HOME/recently-used.xbel).
static inline GtkRecentManager *reel_recent_manager_new(const gchar *filename) {
    if (!filename) return g_object_ref(gtk_recent_manager_get_default());
    return g_object_new(GTK_TYPE_RECENT_MANAGER, "filename", filename, NULL);
}
// Adds `uri` as opened by Reel (application name, `reel %u`), with its display name and MIME type.
static inline gboolean reel_recent_add(GtkRecentManager *m, const gchar *uri, const gchar *name, const gchar *mime) {
    GtkRecentData data = { 0 };
    data.display_name = (gchar *)name;
    data.mime_type = (gchar *)mime;
    data.app_name = (gchar *)"Reel";
    data.app_exec = (gchar *)"reel %u";
    return gtk_recent_manager_add_full(m, uri, &data);
}

// MARK: input through GDK's own road (the socket's keypress, mouse, mouse-drag: mpv's commands)

/// The deepest visible GdkWindow under (x, y) of `parent` (coordinates in `parent`), as GDK
/// delivers a pointer event there; *wx, *wy: the point in that window. Input-only windows (a
/// range's, a button's) count: they are where GTK's widgets take the pointer. Owned by GDK.
static inline GdkWindow *reel_gdk_window_at(GdkWindow *parent, int x, int y, int *wx, int *wy) {
    for (GList *l = gdk_window_peek_children(parent); l; l = l->next) {
        GdkWindow *child = l->data;
        if (!gdk_window_is_visible(child)) continue;
        int cx = 0, cy = 0;
        gdk_window_get_position(child, &cx, &cy);
        int w = gdk_window_get_width(child), h = gdk_window_get_height(child);
        if (x >= cx && y >= cy && x < cx + w && y < cy + h) return reel_gdk_window_at(child, x - cx, y - cy, wx, wy);
    }
    *wx = x; *wy = y;
    return parent;
}

/// The display's pointer, NULL when it has none (a compositor without a seat: weston's headless
/// backend), where no pointer event can be made (GTK's gestures need the device).
static inline GdkDevice *reel_pointer_device(GdkWindow *window) {
    GdkSeat *seat = gdk_display_get_default_seat(gdk_window_get_display(window));
    return seat ? gdk_seat_get_pointer(seat) : NULL;
}

/// A pointer event at (x, y) of the toplevel's window: GDK_BUTTON_PRESS, GDK_2BUTTON_PRESS,
/// GDK_BUTTON_RELEASE (`button`) or GDK_MOTION_NOTIFY (`state`: the buttons held), handed to GTK
/// as one from the display is (`gtk_main_do_event`). Returns 0 when the point is outside.
/// -1: the display has no pointer.
static inline int reel_send_pointer(GtkWidget *toplevel, GdkEventType type, int x, int y, guint button, guint state) {
    GdkWindow *top = gtk_widget_get_window(toplevel);
    if (!top || x < 0 || y < 0 || x >= gdk_window_get_width(top) || y >= gdk_window_get_height(top)) return 0;
    GdkDevice *pointer = reel_pointer_device(top);
    if (!pointer) return -1;
    int wx = 0, wy = 0;
    GdkWindow *window = reel_gdk_window_at(top, x, y, &wx, &wy);
    int ox = 0, oy = 0;
    gdk_window_get_origin(top, &ox, &oy);
    reel_dispatch_pointer(type, window, wx, wy, ox + x, oy + y, button, state, pointer);
    return 1;
}

/// Where a typed key goes: the newest visible window transient for the player's (a dialog),
/// else the player's (the one with the keyboard's focus, as a window manager gives it).
static inline GtkWidget *reel_key_target(GtkWidget *main) {
    GtkWidget *target = main;
    GList *all = gtk_window_list_toplevels();
    for (GList *l = all; l; l = l->next) {
        GtkWidget *w = l->data;
        if (w != main && gtk_widget_get_mapped(w) && gtk_window_get_transient_for(GTK_WINDOW(w)) == GTK_WINDOW(main)) target = w;
    }
    g_list_free(all);
    return target;
}

/// A key press or release on the window that has the keyboard (`reel_key_target`), as the
/// display sends it (its keyval, modifiers and hardware keycode).
static inline void reel_send_key(GtkWidget *toplevel, guint keyval, guint state, int press) {
    toplevel = reel_key_target(toplevel);
    GdkWindow *top = gtk_widget_get_window(toplevel);
    if (!top) return;
    GdkEvent *e = gdk_event_new(press ? GDK_KEY_PRESS : GDK_KEY_RELEASE);
    e->key.window = g_object_ref(top);
    e->key.time = GDK_CURRENT_TIME;
    e->key.keyval = keyval;
    e->key.state = state;
    GdkKeymapKey *keys = NULL;
    gint n = 0;
    if (gdk_keymap_get_entries_for_keyval(gdk_keymap_get_for_display(gdk_window_get_display(top)), keyval, &keys, &n) && n > 0) {
        e->key.hardware_keycode = (guint16)keys[0].keycode;
        e->key.group = (guint8)keys[0].group;
    }
    g_free(keys);
    GdkSeat *seat = gdk_display_get_default_seat(gdk_window_get_display(top));
    GdkDevice *keyboard = seat ? gdk_seat_get_keyboard(seat) : NULL;
    if (keyboard) { gdk_event_set_device(e, keyboard); gdk_event_set_source_device(e, keyboard); }
    gtk_main_do_event(e);
    gdk_event_free(e);
}

// MARK: the widget tree as data (the socket's window-tree)

static inline void reel_collect_child(GtkWidget *w, gpointer data) { GList **l = data; *l = g_list_append(*l, w); }
/// transfer container: the widget's children, internal ones included (gtk_container_forall).
static inline GList *reel_widget_children(GtkWidget *w) {
    GList *l = NULL;
    if (GTK_IS_CONTAINER(w)) gtk_container_forall(GTK_CONTAINER(w), reel_collect_child, &l);
    return l;
}
static inline int reel_is_a(gpointer p, GType t) { return p && G_TYPE_CHECK_INSTANCE_TYPE(p, t); }
static inline const gchar *reel_type_name(gpointer p) { return G_OBJECT_TYPE_NAME(p); }
/// Whether the widget's accessible says `state` (ATK_STATE_CHECKED, _PRESSED, _FOCUSED…).
static inline int reel_atk_has_state(GtkWidget *w, AtkStateType state) {
    AtkObject *a = gtk_widget_get_accessible(w);
    if (!a) return 0;
    AtkStateSet *set = atk_object_ref_state_set(a);
    int has = set && atk_state_set_contains_state(set, state);
    if (set) g_object_unref(set);
    return has;
}

#endif
