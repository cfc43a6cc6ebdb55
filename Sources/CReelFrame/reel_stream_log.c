#include "reel_stream_log.h"
#include <gst/gst.h>
#include <string.h>

#define REEL_STREAM_LOG_KEEP 32

typedef struct {
    GMutex lock;
    gchar *ids[REEL_STREAM_LOG_KEEP];  // a ring: the last ids that started on the pad
    guint next;
} ReelStreamLog;

static GQuark reel_stream_log_quark(void) { return g_quark_from_static_string("reel-stream-log"); }

static void reel_stream_log_add(ReelStreamLog *log, const gchar *id) {
    if (id == NULL) return;
    g_mutex_lock(&log->lock);
    guint last = (log->next + REEL_STREAM_LOG_KEEP - 1) % REEL_STREAM_LOG_KEEP;
    if (log->ids[last] == NULL || strcmp(log->ids[last], id) != 0) {  // a stream-start repeated (a flush) is one
        g_free(log->ids[log->next]);
        log->ids[log->next] = g_strdup(id);
        log->next = (log->next + 1) % REEL_STREAM_LOG_KEEP;
    }
    g_mutex_unlock(&log->lock);
}

static void reel_stream_log_free(gpointer data) {
    ReelStreamLog *log = data;
    for (guint i = 0; i < REEL_STREAM_LOG_KEEP; i++) g_free(log->ids[i]);
    g_mutex_clear(&log->lock);
    g_free(log);
}

// Streaming thread: every STREAM_START event that passes the input.
static GstPadProbeReturn reel_stream_log_probe(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
    if (event != NULL && GST_EVENT_TYPE(event) == GST_EVENT_STREAM_START) {
        const gchar *id = NULL;
        gst_event_parse_stream_start(event, &id);
        reel_stream_log_add(data, id);
    }
    return GST_PAD_PROBE_OK;
}

static const gchar *const reel_stream_log_inputs[] = {"video_sink", "audio_sink", "text_sink"};

void reel_stream_log_watch(void *playbin) {
    GstElement *playsink = gst_bin_get_by_name(GST_BIN(playbin), "playsink");
    if (playsink == NULL) return;
    for (guint i = 0; i < G_N_ELEMENTS(reel_stream_log_inputs); i++) {
        GstPad *pad = gst_element_get_static_pad(playsink, reel_stream_log_inputs[i]);
        if (pad == NULL) continue;
        GST_OBJECT_LOCK(pad);
        gboolean watched = g_object_get_qdata(G_OBJECT(pad), reel_stream_log_quark()) != NULL;
        ReelStreamLog *log = NULL;
        if (!watched) {
            log = g_new0(ReelStreamLog, 1);
            g_mutex_init(&log->lock);
            // The pad owns the log: freed with the pad (its qdata), after its probes are gone.
            g_object_set_qdata_full(G_OBJECT(pad), reel_stream_log_quark(), log, reel_stream_log_free);
        }
        GST_OBJECT_UNLOCK(pad);
        if (log != NULL) {
            gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, reel_stream_log_probe, log, NULL);
            GstEvent *sticky = gst_pad_get_sticky_event(pad, GST_EVENT_STREAM_START, 0);
            if (sticky != NULL) {
                const gchar *id = NULL;
                gst_event_parse_stream_start(sticky, &id);
                reel_stream_log_add(log, id);
                gst_event_unref(sticky);
            }
        }
        gst_object_unref(pad);
    }
    gst_object_unref(playsink);
}

int reel_stream_log_saw(void *playbin, const char *id) {
    int saw = 0;
    GstElement *playsink = gst_bin_get_by_name(GST_BIN(playbin), "playsink");
    if (playsink == NULL || id == NULL) {
        if (playsink != NULL) gst_object_unref(playsink);
        return 0;
    }
    for (guint i = 0; i < G_N_ELEMENTS(reel_stream_log_inputs) && !saw; i++) {
        GstPad *pad = gst_element_get_static_pad(playsink, reel_stream_log_inputs[i]);
        if (pad == NULL) continue;
        ReelStreamLog *log = g_object_get_qdata(G_OBJECT(pad), reel_stream_log_quark());
        if (log != NULL) {
            g_mutex_lock(&log->lock);
            for (guint k = 0; k < REEL_STREAM_LOG_KEEP && !saw; k++) saw = log->ids[k] != NULL && strcmp(log->ids[k], id) == 0;
            g_mutex_unlock(&log->lock);
        }
        gst_object_unref(pad);
    }
    gst_object_unref(playsink);
    return saw;
}
