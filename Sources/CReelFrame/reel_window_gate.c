// See include/reel_window_gate.h.
#include "reel_window_gate.h"
#include <gst/gst.h>
#include <gst/video/videooverlay.h>

struct ReelWindowGate {
    GMutex lock;
    GCond cond;
    guintptr handle;
    gboolean done;
    GThread *owner;
    gint64 bound_us;
    // Where in the window the video goes (Wayland: the toplevel's surface is the handle); w = 0: the whole window.
    gint x, y, w, h;
};

static void gate_clear(gpointer data) {
    ReelWindowGate *g = (ReelWindowGate *)data;
    g_mutex_clear(&g->lock);
    g_cond_clear(&g->cond);
}

static void gate_release(gpointer data) { reel_window_gate_unref((ReelWindowGate *)data); }

ReelWindowGate *reel_window_gate_new(unsigned bound_ms) {
    ReelWindowGate *g = (ReelWindowGate *)g_atomic_rc_box_alloc0(sizeof(ReelWindowGate));
    g_mutex_init(&g->lock);
    g_cond_init(&g->cond);
    g->owner = g_thread_self();
    g->bound_us = (gint64)bound_ms * 1000;
    return g;
}

void reel_window_gate_unref(ReelWindowGate *g) { g_atomic_rc_box_release_full(g, gate_clear); }

void reel_window_gate_open(ReelWindowGate *g, uintptr_t handle) {
    g_mutex_lock(&g->lock);
    g->handle = handle;
    g->done = TRUE;
    g_cond_broadcast(&g->cond);
    g_mutex_unlock(&g->lock);
}

void reel_window_gate_cancel(ReelWindowGate *g) { reel_window_gate_open(g, 0); }

void reel_window_gate_open_rect(ReelWindowGate *g, uintptr_t handle, int x, int y, int w, int h) {
    g_mutex_lock(&g->lock);
    g->x = x; g->y = y; g->w = w; g->h = h;
    g_mutex_unlock(&g->lock);
    reel_window_gate_open(g, handle);
}

// The sink's video overlay (itself, or the one inside a bin), referenced; NULL when none.
static GstVideoOverlay *overlay_of(GstElement *sink) {
    if (GST_IS_VIDEO_OVERLAY(sink)) return GST_VIDEO_OVERLAY(gst_object_ref(sink));
    if (GST_IS_BIN(sink)) {
        GstElement *o = gst_bin_get_by_interface(GST_BIN(sink), GST_TYPE_VIDEO_OVERLAY);
        if (o) return GST_VIDEO_OVERLAY(o);
    }
    return NULL;
}

static GstPadProbeReturn gate_probe(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    ReelWindowGate *g = (ReelWindowGate *)data;
    GstQuery *q = GST_PAD_PROBE_INFO_QUERY(info);
    if (q == NULL || GST_QUERY_TYPE(q) != GST_QUERY_CAPS) return GST_PAD_PROBE_OK;
    if (g_thread_self() == g->owner) return GST_PAD_PROBE_OK;
    g_mutex_lock(&g->lock);
    gint64 end = g_get_monotonic_time() + g->bound_us;
    while (!g->done) {
        if (!g_cond_wait_until(&g->cond, &g->lock, end)) break;
    }
    guintptr handle = g->handle;
    gint x = g->x, y = g->y, w = g->w, h = g->h;
    g_mutex_unlock(&g->lock);
    if (handle != 0) {
        GstElement *sink = gst_pad_get_parent_element(pad);
        GstVideoOverlay *overlay = sink ? overlay_of(sink) : NULL;
        if (overlay) {
            gst_video_overlay_set_window_handle(overlay, handle);
            if (w > 0 && h > 0) gst_video_overlay_set_render_rectangle(overlay, x, y, w, h);
            gst_object_unref(overlay);
        }
        if (sink) gst_object_unref(sink);
    }
    return GST_PAD_PROBE_REMOVE;
}

int reel_window_gate_attach(ReelWindowGate *g, void *sink) {
    GstPad *pad = gst_element_get_static_pad(GST_ELEMENT(sink), "sink");
    if (pad == NULL) return 0;
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_QUERY_DOWNSTREAM, gate_probe, g_atomic_rc_box_acquire(g), gate_release);
    gst_object_unref(pad);
    return 1;
}
