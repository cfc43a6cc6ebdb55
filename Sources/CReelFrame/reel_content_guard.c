#include "reel_content_guard.h"
#include <gst/gst.h>
#include <gst/pbutils/pbutils.h>

typedef struct {
    ReelContentClassifier classify;
    gchar *location;
    gint refused;  // atomic: once refused, every later buffer is dropped too
} Guard;

static void guard_free(gpointer data) {
    Guard *g = data;
    g_free(g->location);
    g_free(g);
}

static GstPadProbeReturn on_buffer(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    Guard *g = data;
    if (g_atomic_int_get(&g->refused)) return GST_PAD_PROBE_DROP;
    GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER(info);
    if (buffer == NULL) return GST_PAD_PROBE_OK;
    // Pull-mode typefinding may read elsewhere first (a file's end); the head decides.
    guint64 offset = GST_BUFFER_OFFSET(buffer);
    if (offset != 0 && offset != GST_BUFFER_OFFSET_NONE) return GST_PAD_PROBE_OK;
    GstMapInfo map;
    if (!gst_buffer_map(buffer, &map, GST_MAP_READ)) return GST_PAD_PROBE_OK;
    int verdict = g->classify(map.data, MIN(map.size, (gsize)4096), g->location);
    gst_buffer_unmap(buffer, &map);
    if (verdict == 0) return GST_PAD_PROBE_REMOVE;
    g_atomic_int_set(&g->refused, 1);
    GstElement *source = GST_ELEMENT(gst_pad_get_parent_element(pad));
    if (source != NULL) {
        GError *error = g_error_new(GST_STREAM_ERROR, GST_STREAM_ERROR_WRONG_TYPE, REEL_CONTENT_GUARD_PREFIX "%d", verdict);
        gst_element_post_message(source, gst_message_new_error(GST_OBJECT(source), error, "refused by its first bytes"));
        g_error_free(error);
        gst_object_unref(source);
    }
    return GST_PAD_PROBE_DROP;
}

void reel_content_guard_attach(void *element, ReelContentClassifier classify) {
    GstElement *source = GST_ELEMENT(element);
    GstPad *pad = gst_element_get_static_pad(source, "src");
    if (pad == NULL) return;
    Guard *g = g_new0(Guard, 1);
    g->classify = classify;
    if (g_object_class_find_property(G_OBJECT_GET_CLASS(source), "location") != NULL) {
        g_object_get(source, "location", &g->location, NULL);
    }
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, on_buffer, g, guard_free);
    gst_object_unref(pad);
}

static void on_source_setup(GstDiscoverer *discoverer, GstElement *source, gpointer data) {
    (void)discoverer;
    reel_content_guard_attach(source, (ReelContentClassifier)data);
}

void reel_content_guard_discoverer(void *discoverer, ReelContentClassifier classify) {
    g_signal_connect(discoverer, "source-setup", G_CALLBACK(on_source_setup), (gpointer)classify);
}
