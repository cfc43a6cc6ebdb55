// See include/reel_video_box.h.
#include "reel_video_box.h"
#include <gst/gst.h>

typedef struct {
    GMutex lock;
    gint pending;  // read without the lock on every frame: one atomic load while nothing is asked
    gint left, right, top, bottom;
} BoxRequest;

static const char *const request_key = "reel-box-request";

static void request_free(gpointer data) {
    BoxRequest *request = data;
    g_mutex_clear(&request->lock);
    g_free(request);
}

// Streaming thread, before the buffer reaches the element's chain function: base transform
// then sees the reconfigure the new box asks for and negotiates before it transforms.
static GstPadProbeReturn box_probe(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    (void)info;
    BoxRequest *request = data;
    if (!g_atomic_int_get(&request->pending)) return GST_PAD_PROBE_OK;
    g_mutex_lock(&request->lock);
    gint left = request->left, right = request->right, top = request->top, bottom = request->bottom;
    g_atomic_int_set(&request->pending, FALSE);
    g_mutex_unlock(&request->lock);
    GstObject *box = gst_pad_get_parent(pad);
    if (box == NULL) return GST_PAD_PROBE_OK;
    g_object_set(box, "left", left, "right", right, "top", top, "bottom", bottom, NULL);
    gst_object_unref(box);
    return GST_PAD_PROBE_OK;
}

void reel_video_box_follow_requests(void *videobox) {
    if (videobox == NULL || !GST_IS_ELEMENT(videobox)) return;
    if (g_object_get_data(G_OBJECT(videobox), request_key) != NULL) return;
    GstPad *sink = gst_element_get_static_pad(GST_ELEMENT(videobox), "sink");
    if (sink == NULL) return;
    BoxRequest *request = g_new0(BoxRequest, 1);
    g_mutex_init(&request->lock);
    // The element owns the request; the probe goes with its pad, which goes with the element.
    g_object_set_data_full(G_OBJECT(videobox), request_key, request, request_free);
    gst_pad_add_probe(sink, GST_PAD_PROBE_TYPE_BUFFER | GST_PAD_PROBE_TYPE_BUFFER_LIST, box_probe, request, NULL);
    gst_object_unref(sink);
}

void reel_video_box_request(void *videobox, int left, int right, int top, int bottom) {
    if (videobox == NULL || !GST_IS_ELEMENT(videobox)) return;
    BoxRequest *request = g_object_get_data(G_OBJECT(videobox), request_key);
    if (request == NULL) {
        g_object_set(videobox, "left", left, "right", right, "top", top, "bottom", bottom, NULL);
        return;
    }
    g_mutex_lock(&request->lock);
    request->left = left; request->right = right; request->top = top; request->bottom = bottom;
    g_atomic_int_set(&request->pending, TRUE);
    g_mutex_unlock(&request->lock);
}

// The input's format, given to the capsfilter after the box before videobox negotiates: with
// a choice, 1.22's videobox takes AYUV for I420 and converts every frame, even with no box.
// Its colorimetry and chroma siting too: videobox's caps drop both, and a picture without them
// cost the window's scaler 3.4 times as much (5.1 ms a 1080p frame against 1.5, the generic
// path: 1.1 s of CPU per 10 s of 1080p in the X11 window) and was converted to the screen's
// RGB by BT.601 at a window's height below 720, where the file said BT.709.
static GstPadProbeReturn caps_probe(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    (void)pad;
    GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
    if (GST_EVENT_TYPE(event) != GST_EVENT_CAPS) return GST_PAD_PROBE_OK;
    GstCaps *caps = NULL;
    gst_event_parse_caps(event, &caps);
    const GstStructure *s = caps ? gst_caps_get_structure(caps, 0) : NULL;
    const gchar *format = s ? gst_structure_get_string(s, "format") : NULL;
    if (format == NULL) return GST_PAD_PROBE_OK;
    GstCaps *same = gst_caps_new_simple("video/x-raw", "format", G_TYPE_STRING, format, NULL);
    GstStructure *kept = gst_caps_get_structure(same, 0);
    const gchar *carried[] = {"colorimetry", "chroma-site"};
    for (guint i = 0; i < G_N_ELEMENTS(carried); i++) {
        const gchar *value = gst_structure_get_string(s, carried[i]);
        if (value) gst_structure_set(kept, carried[i], G_TYPE_STRING, value, NULL);
    }
    g_object_set(G_OBJECT(data), "caps", same, NULL);
    gst_caps_unref(same);
    return GST_PAD_PROBE_OK;
}

void reel_video_box_keep_format(void *videobox, void *capsfilter) {
    if (videobox == NULL || capsfilter == NULL || !GST_IS_ELEMENT(videobox)) return;
    GstPad *sink = gst_element_get_static_pad(GST_ELEMENT(videobox), "sink");
    if (sink == NULL) return;
    gst_pad_add_probe(sink, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, caps_probe, gst_object_ref(capsfilter), gst_object_unref);
    gst_object_unref(sink);
}
