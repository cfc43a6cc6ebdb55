#include "reel_text_track.h"
#include <gst/gst.h>
#include <string.h>

typedef struct {
    GstElement *pipeline;
    GstSegment segment;  // the text stream's last TIME segment: a buffer's PTS through it is its stream time
    int index;
    int seen;  // text streams exposed so far
    GMutex lock;
    ReelTextCueCallback cue;
    void *user_data;
} ReelTextTrack;

static GstPadProbeReturn reel_text_track_buffer(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    ReelTextTrack *t = data;
    if (GST_PAD_PROBE_INFO_TYPE(info) & GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM) {
        GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
        if (event != NULL && GST_EVENT_TYPE(event) == GST_EVENT_SEGMENT) {
            const GstSegment *segment = NULL;
            gst_event_parse_segment(event, &segment);
            if (segment != NULL && segment->format == GST_FORMAT_TIME) gst_segment_copy_into(segment, &t->segment);
        }
        return GST_PAD_PROBE_OK;
    }
    GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER(info);
    if (buffer == NULL) return GST_PAD_PROBE_OK;
    // Times as the overlay and playbin3 show them: stream time (an MP4 edit list, a segment's start).
    guint64 pts = GST_BUFFER_PTS(buffer);
    if (GST_CLOCK_TIME_IS_VALID(pts) && t->segment.format == GST_FORMAT_TIME) {
        guint64 stream = gst_segment_to_stream_time(&t->segment, GST_FORMAT_TIME, pts);
        if (GST_CLOCK_TIME_IS_VALID(stream)) pts = stream;
    }
    int markup = 0;
    GstCaps *caps = gst_pad_get_current_caps(pad);
    if (caps != NULL) {
        const gchar *format = gst_caps_get_size(caps) > 0 ? gst_structure_get_string(gst_caps_get_structure(caps, 0), "format") : NULL;
        markup = format != NULL && strcmp(format, "pango-markup") == 0;
        gst_caps_unref(caps);
    }
    GstMapInfo map;
    if (gst_buffer_map(buffer, &map, GST_MAP_READ)) {
        t->cue(t->user_data, pts, GST_BUFFER_DURATION(buffer), (const char *)map.data, map.size, markup);
        gst_buffer_unmap(buffer, &map);
    }
    return GST_PAD_PROBE_OK;
}

static gboolean reel_caps_are_text(GstCaps *caps) {
    if (caps == NULL || gst_caps_is_empty(caps) || gst_caps_is_any(caps)) return FALSE;
    const gchar *name = gst_structure_get_name(gst_caps_get_structure(caps, 0));
    return g_str_has_prefix(name, "text/") || g_str_has_prefix(name, "application/x-ssa") || g_str_has_prefix(name, "application/x-ass")
        || g_str_has_prefix(name, "application/x-subtitle") || g_str_has_prefix(name, "subtitle/");
}

// Decoding goes on for text and for what a demuxer reads (containers, adaptive manifests);
// video and audio streams stop at their first caps and are thrown away undecoded.
static gboolean reel_text_track_continue(GstElement *bin, GstPad *pad, GstCaps *caps, gpointer data) {
    (void)bin; (void)pad; (void)data;
    if (reel_caps_are_text(caps)) return TRUE;
    GList *demuxers = gst_element_factory_list_get_elements(GST_ELEMENT_FACTORY_TYPE_DEMUXER, GST_RANK_MARGINAL);
    GList *fit = gst_element_factory_list_filter(demuxers, caps, GST_PAD_SINK, FALSE);
    gboolean go_on = fit != NULL;
    gst_plugin_feature_list_free(fit);
    gst_plugin_feature_list_free(demuxers);
    return go_on;
}

static void reel_text_track_pad(GstElement *bin, GstPad *pad, gpointer data) {
    (void)bin;
    ReelTextTrack *t = data;
    GstCaps *caps = gst_pad_get_current_caps(pad);
    if (caps == NULL) caps = gst_pad_query_caps(pad, NULL);
    gboolean text = caps != NULL && gst_caps_get_size(caps) > 0
        && g_str_has_prefix(gst_structure_get_name(gst_caps_get_structure(caps, 0)), "text/x-raw");
    if (caps != NULL) gst_caps_unref(caps);
    GstElement *sink = gst_element_factory_make("fakesink", NULL);
    if (sink == NULL) return;
    g_object_set(sink, "sync", FALSE, NULL);
    gst_bin_add(GST_BIN(t->pipeline), sink);
    gst_element_sync_state_with_parent(sink);
    GstPad *sink_pad = gst_element_get_static_pad(sink, "sink");
    if (text) {
        g_mutex_lock(&t->lock);
        gboolean mine = t->seen++ == t->index;
        g_mutex_unlock(&t->lock);
        if (mine) gst_pad_add_probe(sink_pad, GST_PAD_PROBE_TYPE_BUFFER | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, reel_text_track_buffer, t, NULL);
    }
    gst_pad_link(pad, sink_pad);
    gst_object_unref(sink_pad);
}

int reel_text_track_read(const char *uri, int index, uint64_t timeout_ns, ReelTextCueCallback cue, void *user_data,
                         char **error_message) {
    *error_message = NULL;
    ReelTextTrack t = {.index = index, .cue = cue, .user_data = user_data};
    gst_segment_init(&t.segment, GST_FORMAT_UNDEFINED);
    g_mutex_init(&t.lock);
    t.pipeline = gst_pipeline_new("reel-text-track");
    GstElement *decoder = gst_element_factory_make("uridecodebin", NULL);
    if (t.pipeline == NULL || decoder == NULL) {
        *error_message = g_strdup("uridecodebin is not installed");
        if (t.pipeline) gst_object_unref(t.pipeline);
        if (decoder) gst_object_unref(decoder);
        g_mutex_clear(&t.lock);
        return -1;
    }
    GstCaps *stop = gst_caps_from_string("text/x-raw");
    g_object_set(decoder, "uri", uri, "caps", stop, NULL);
    gst_caps_unref(stop);
    g_signal_connect(decoder, "autoplug-continue", G_CALLBACK(reel_text_track_continue), &t);
    g_signal_connect(decoder, "pad-added", G_CALLBACK(reel_text_track_pad), &t);
    gst_bin_add(GST_BIN(t.pipeline), decoder);

    int result = -1;
    GstBus *bus = gst_element_get_bus(t.pipeline);
    if (gst_element_set_state(t.pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) {
        // The error message on the bus says why.
    }
    gint64 deadline = g_get_monotonic_time() + (gint64)(timeout_ns / 1000);
    for (;;) {
        gint64 left = deadline - g_get_monotonic_time();
        if (left <= 0) {
            result = -2;
            break;
        }
        GstMessage *m = gst_bus_timed_pop_filtered(bus, (GstClockTime)left * 1000, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
        if (m == NULL) {
            result = -2;
            break;
        }
        if (GST_MESSAGE_TYPE(m) == GST_MESSAGE_ERROR) {
            GError *e = NULL;
            gst_message_parse_error(m, &e, NULL);
            *error_message = g_strdup(e ? e->message : "the media could not be read");
            if (e) g_error_free(e);
            gst_message_unref(m);
            result = -1;
            break;
        }
        gst_message_unref(m);
        g_mutex_lock(&t.lock);
        result = t.seen;
        g_mutex_unlock(&t.lock);
        break;
    }
    gst_element_set_state(t.pipeline, GST_STATE_NULL);
    gst_object_unref(bus);
    gst_object_unref(t.pipeline);
    g_mutex_clear(&t.lock);
    return result;
}

void reel_text_track_free(void *bytes) { g_free(bytes); }
