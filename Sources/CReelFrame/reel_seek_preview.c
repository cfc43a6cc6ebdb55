// See include/reel_seek_preview.h.
#include "reel_seek_preview.h"
#include <gst/gst.h>
#include <gst/video/video.h>
#include <string.h>

struct ReelSeekPreview {
    GstElement *pipeline;
    GstElement *sink;
};

static void on_pad_added(GstElement *decodebin, GstPad *pad, gpointer user_data) {
    GstElement *convert = GST_ELEMENT(user_data);
    GstCaps *caps = gst_pad_get_current_caps(pad);
    if (!caps) caps = gst_pad_query_caps(pad, NULL);
    const gchar *name = caps && gst_caps_get_size(caps) > 0 ? gst_structure_get_name(gst_caps_get_structure(caps, 0)) : "";
    if (g_str_has_prefix(name, "video/")) {
        GstPad *sinkpad = gst_element_get_static_pad(convert, "sink");
        if (!gst_pad_is_linked(sinkpad)) gst_pad_link(pad, sinkpad);
        gst_object_unref(sinkpad);
    }
    if (caps) gst_caps_unref(caps);
}

/// Waits for the pipeline to settle in PAUSED (ASYNC_DONE) or fail, within the timeout.
static gboolean settle(ReelSeekPreview *p, uint64_t timeout_ns, char **error_message) {
    GstBus *bus = gst_element_get_bus(p->pipeline);
    gboolean ok = FALSE;
    GstMessage *msg = gst_bus_timed_pop_filtered(bus, timeout_ns, GST_MESSAGE_ASYNC_DONE | GST_MESSAGE_ERROR);
    if (msg && GST_MESSAGE_TYPE(msg) == GST_MESSAGE_ASYNC_DONE) {
        ok = TRUE;
    } else if (error_message) {
        if (msg) {
            GError *err = NULL;
            gst_message_parse_error(msg, &err, NULL);
            *error_message = g_strdup(err ? err->message : "error");
            if (err) g_error_free(err);
        } else {
            *error_message = g_strdup("no frame in time");
        }
    }
    if (msg) gst_message_unref(msg);
    gst_object_unref(bus);
    return ok;
}

ReelSeekPreview *reel_seek_preview_new(const char *uri, int width, uint64_t timeout_ns, char **error_message) {
    if (error_message) *error_message = NULL;
    ReelSeekPreview *p = g_new0(ReelSeekPreview, 1);
    p->pipeline = gst_pipeline_new("reel-seek-preview");
    GstElement *decode = gst_element_factory_make("uridecodebin", NULL);
    GstElement *convert = gst_element_factory_make("videoconvert", NULL);
    GstElement *scale = gst_element_factory_make("videoscale", NULL);
    GstElement *filter = gst_element_factory_make("capsfilter", NULL);
    p->sink = gst_element_factory_make("fakesink", NULL);
    if (!decode || !convert || !scale || !filter || !p->sink) {
        if (error_message) *error_message = g_strdup("an element is missing");
        if (decode) gst_object_unref(decode);
        if (convert) gst_object_unref(convert);
        if (scale) gst_object_unref(scale);
        if (filter) gst_object_unref(filter);
        if (p->sink) gst_object_unref(p->sink);
        gst_object_unref(p->pipeline);
        g_free(p);
        return NULL;
    }
    g_object_set(decode, "uri", uri, "connection-speed", (guint64)200, NULL);  // an adaptive stream's lowest rendition
    GstCaps *caps = gst_caps_new_simple("video/x-raw", "format", G_TYPE_STRING, "RGB", "width", G_TYPE_INT, width,
                                        "pixel-aspect-ratio", GST_TYPE_FRACTION, 1, 1, NULL);
    g_object_set(filter, "caps", caps, NULL);
    gst_caps_unref(caps);
    g_object_set(p->sink, "sync", FALSE, "enable-last-sample", TRUE, NULL);
    gst_bin_add_many(GST_BIN(p->pipeline), decode, convert, scale, filter, p->sink, NULL);
    gst_element_link_many(convert, scale, filter, p->sink, NULL);
    g_signal_connect(decode, "pad-added", G_CALLBACK(on_pad_added), convert);
    gst_object_ref(p->sink);
    gst_element_set_state(p->pipeline, GST_STATE_PAUSED);
    if (!settle(p, timeout_ns, error_message)) {
        reel_seek_preview_free(p);
        return NULL;
    }
    return p;
}

uint64_t reel_seek_preview_duration(ReelSeekPreview *p) {
    gint64 d = 0;
    return gst_element_query_duration(p->pipeline, GST_FORMAT_TIME, &d) && d > 0 ? (uint64_t)d : 0;
}

uint8_t *reel_seek_preview_frame(ReelSeekPreview *p, uint64_t position_ns, uint64_t timeout_ns,
                                 int *width, int *height, int *stride, uint64_t *pts_ns) {
    if (!gst_element_seek_simple(p->pipeline, GST_FORMAT_TIME,
                                 GST_SEEK_FLAG_FLUSH | GST_SEEK_FLAG_KEY_UNIT | GST_SEEK_FLAG_SNAP_BEFORE, (gint64)position_ns))
        return NULL;
    if (!settle(p, timeout_ns, NULL)) return NULL;
    GstSample *sample = NULL;
    g_object_get(p->sink, "last-sample", &sample, NULL);
    if (!sample) return NULL;
    uint8_t *out = NULL;
    GstVideoInfo info;
    GstBuffer *buffer = gst_sample_get_buffer(sample);
    GstMapInfo map;
    if (buffer && gst_video_info_from_caps(&info, gst_sample_get_caps(sample)) && gst_buffer_map(buffer, &map, GST_MAP_READ)) {
        *width = GST_VIDEO_INFO_WIDTH(&info);
        *height = GST_VIDEO_INFO_HEIGHT(&info);
        *stride = GST_VIDEO_INFO_PLANE_STRIDE(&info, 0);
        *pts_ns = GST_BUFFER_PTS(buffer);
        size_t size = (size_t)(*stride) * (size_t)(*height);
        if (size <= map.size) {
            out = g_malloc(size);
            memcpy(out, map.data, size);
        }
        gst_buffer_unmap(buffer, &map);
    }
    gst_sample_unref(sample);
    return out;
}

void reel_seek_preview_free(ReelSeekPreview *p) {
    if (!p) return;
    gst_element_set_state(p->pipeline, GST_STATE_NULL);
    gst_object_unref(p->sink);
    gst_object_unref(p->pipeline);
    g_free(p);
}
