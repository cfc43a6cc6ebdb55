#include "reel_stream_log.h"
#include <gst/gst.h>
#include <string.h>

#define REEL_STREAM_LOG_KEEP 32

typedef struct {
    gchar *id;
    guint64 end;  // the stream time the stream's buffers reached (GST_CLOCK_TIME_NONE: none yet)
} ReelStreamEntry;

typedef struct {
    GMutex lock;
    ReelStreamEntry entries[REEL_STREAM_LOG_KEEP];  // a ring: the last streams that started on the pad
    guint next;
    GstSegment segment;  // the current stream's TIME segment: a buffer's time through it is stream time
} ReelStreamLog;

static GQuark reel_stream_log_quark(void) { return g_quark_from_static_string("reel-stream-log"); }

static ReelStreamEntry *reel_stream_log_latest(ReelStreamLog *log) {
    return &log->entries[(log->next + REEL_STREAM_LOG_KEEP - 1) % REEL_STREAM_LOG_KEEP];
}

static void reel_stream_log_add(ReelStreamLog *log, const gchar *id) {
    if (id == NULL) return;
    g_mutex_lock(&log->lock);
    ReelStreamEntry *latest = reel_stream_log_latest(log);
    if (latest->id == NULL || strcmp(latest->id, id) != 0) {  // a stream-start repeated (a flush) is one
        ReelStreamEntry *entry = &log->entries[log->next];
        g_free(entry->id);
        entry->id = g_strdup(id);
        entry->end = GST_CLOCK_TIME_NONE;
        log->next = (log->next + 1) % REEL_STREAM_LOG_KEEP;
        gst_segment_init(&log->segment, GST_FORMAT_UNDEFINED);
    }
    g_mutex_unlock(&log->lock);
}

// A buffer of the current stream: how far in stream time its data reaches.
static void reel_stream_log_buffer(ReelStreamLog *log, GstBuffer *buffer) {
    GstClockTime pts = GST_BUFFER_PTS(buffer);
    if (!GST_CLOCK_TIME_IS_VALID(pts)) return;
    GstClockTime end = pts + (GST_BUFFER_DURATION_IS_VALID(buffer) ? GST_BUFFER_DURATION(buffer) : 0);
    g_mutex_lock(&log->lock);
    ReelStreamEntry *latest = reel_stream_log_latest(log);
    if (latest->id != NULL && log->segment.format == GST_FORMAT_TIME) {
        guint64 stream_time = gst_segment_to_stream_time(&log->segment, GST_FORMAT_TIME, end);
        if (GST_CLOCK_TIME_IS_VALID(stream_time) && (!GST_CLOCK_TIME_IS_VALID(latest->end) || stream_time > latest->end))
            latest->end = stream_time;
    }
    g_mutex_unlock(&log->lock);
}

static void reel_stream_log_free(gpointer data) {
    ReelStreamLog *log = data;
    for (guint i = 0; i < REEL_STREAM_LOG_KEEP; i++) g_free(log->entries[i].id);
    g_mutex_clear(&log->lock);
    g_free(log);
}

// Streaming thread: every STREAM_START and SEGMENT event and every buffer that passes the input.
static GstPadProbeReturn reel_stream_log_probe(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    ReelStreamLog *log = data;
    if (GST_PAD_PROBE_INFO_TYPE(info) & GST_PAD_PROBE_TYPE_BUFFER) {
        GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER(info);
        if (buffer != NULL) reel_stream_log_buffer(log, buffer);
    } else if (GST_PAD_PROBE_INFO_TYPE(info) & GST_PAD_PROBE_TYPE_BUFFER_LIST) {
        GstBufferList *list = GST_PAD_PROBE_INFO_BUFFER_LIST(info);
        guint n = list != NULL ? gst_buffer_list_length(list) : 0;
        if (n > 0) reel_stream_log_buffer(log, gst_buffer_list_get(list, n - 1));
    } else {
        GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
        if (event != NULL && GST_EVENT_TYPE(event) == GST_EVENT_STREAM_START) {
            const gchar *id = NULL;
            gst_event_parse_stream_start(event, &id);
            reel_stream_log_add(log, id);
        } else if (event != NULL && GST_EVENT_TYPE(event) == GST_EVENT_SEGMENT) {
            const GstSegment *segment = NULL;
            gst_event_parse_segment(event, &segment);
            g_mutex_lock(&log->lock);
            if (segment != NULL) gst_segment_copy_into(segment, &log->segment);
            g_mutex_unlock(&log->lock);
        }
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
            gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM | GST_PAD_PROBE_TYPE_BUFFER | GST_PAD_PROBE_TYPE_BUFFER_LIST,
                              reel_stream_log_probe, log, NULL);
            GstEvent *sticky = gst_pad_get_sticky_event(pad, GST_EVENT_STREAM_START, 0);
            if (sticky != NULL) {
                const gchar *id = NULL;
                gst_event_parse_stream_start(sticky, &id);
                reel_stream_log_add(log, id);
                gst_event_unref(sticky);
            }
            GstEvent *segment_event = gst_pad_get_sticky_event(pad, GST_EVENT_SEGMENT, 0);
            if (segment_event != NULL) {
                const GstSegment *segment = NULL;
                gst_event_parse_segment(segment_event, &segment);
                g_mutex_lock(&log->lock);
                if (segment != NULL) gst_segment_copy_into(segment, &log->segment);
                g_mutex_unlock(&log->lock);
                gst_event_unref(segment_event);
            }
        }
        gst_object_unref(pad);
    }
    gst_object_unref(playsink);
}

// Calls `visit` with each watched input's log entry for stream `id`, under the log's lock.
static void reel_stream_log_find(void *playbin, const char *id, void (*visit)(const ReelStreamEntry *, void *), void *data) {
    if (id == NULL) return;
    GstElement *playsink = gst_bin_get_by_name(GST_BIN(playbin), "playsink");
    if (playsink == NULL) return;
    for (guint i = 0; i < G_N_ELEMENTS(reel_stream_log_inputs); i++) {
        GstPad *pad = gst_element_get_static_pad(playsink, reel_stream_log_inputs[i]);
        if (pad == NULL) continue;
        ReelStreamLog *log = g_object_get_qdata(G_OBJECT(pad), reel_stream_log_quark());
        if (log != NULL) {
            g_mutex_lock(&log->lock);
            for (guint k = 0; k < REEL_STREAM_LOG_KEEP; k++) {
                if (log->entries[k].id != NULL && strcmp(log->entries[k].id, id) == 0) visit(&log->entries[k], data);
            }
            g_mutex_unlock(&log->lock);
        }
        gst_object_unref(pad);
    }
    gst_object_unref(playsink);
}

static void reel_stream_log_count(const ReelStreamEntry *entry, void *data) { (*(int *)data)++; }

int reel_stream_log_saw(void *playbin, const char *id) {
    int seen = 0;
    reel_stream_log_find(playbin, id, reel_stream_log_count, &seen);
    return seen > 0;
}

static void reel_stream_log_latest_end(const ReelStreamEntry *entry, void *data) {
    int64_t *end = data;
    if (GST_CLOCK_TIME_IS_VALID(entry->end) && (int64_t)entry->end > *end) *end = (int64_t)entry->end;
}

int64_t reel_stream_log_end(void *playbin, const char *id) {
    int64_t end = -1;
    reel_stream_log_find(playbin, id, reel_stream_log_latest_end, &end);
    return end;
}
