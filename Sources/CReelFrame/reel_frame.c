// See include/reel_frame.h.
#include "reel_frame.h"
#include <gst/gst.h>
#include <gst/video/video.h>
#include <string.h>
#include <math.h>

// A copy of a packed-format sample with the letterbox or pillarbox bars around a picture of
// aspect `aspect` (width/height, square pixels) cut away; NULL when there are none to cut or
// the format is planar. Transfer full.
static GstSample *crop_bars(GstSample *sample, double aspect) {
    GstCaps *in = gst_sample_get_caps(sample);  // borrowed
    GstBuffer *inbuf = gst_sample_get_buffer(sample);  // borrowed
    GstVideoInfo vi;
    if (!in || !inbuf || !gst_video_info_from_caps(&vi, in) || GST_VIDEO_INFO_N_PLANES(&vi) != 1) return NULL;
    gint w = GST_VIDEO_INFO_WIDTH(&vi), h = GST_VIDEO_INFO_HEIGHT(&vi);
    gint pn = GST_VIDEO_INFO_PAR_N(&vi), pd = GST_VIDEO_INFO_PAR_D(&vi);
    if (w <= 0 || h <= 0 || pn <= 0 || pd <= 0) return NULL;
    double want = aspect * pd / pn;  // the picture's aspect in the sample's own pixels
    gint cw = w, ch = h;
    if ((double)w / h > want * 1.01) cw = (gint)(h * want + 0.5);        // bars left and right
    else if ((double)w / h < want / 1.01) ch = (gint)(w / want + 0.5);   // bars top and bottom
    if ((cw == w && ch == h) || cw <= 0 || ch <= 0) return NULL;
    gint x = (w - cw) / 2, y = (h - ch) / 2;
    gint ps = GST_VIDEO_INFO_COMP_PSTRIDE(&vi, 0);
    if (ps <= 0) return NULL;
    GstVideoFrame frame;
    if (!gst_video_frame_map(&frame, &vi, inbuf, GST_MAP_READ)) return NULL;
    gint stride = GST_VIDEO_FRAME_PLANE_STRIDE(&frame, 0);
    const guint8 *src = GST_VIDEO_FRAME_PLANE_DATA(&frame, 0);
    GstVideoInfo out;
    gst_video_info_set_format(&out, GST_VIDEO_INFO_FORMAT(&vi), (guint)cw, (guint)ch);
    GST_VIDEO_INFO_PAR_N(&out) = pn;
    GST_VIDEO_INFO_PAR_D(&out) = pd;
    GST_VIDEO_INFO_FPS_N(&out) = GST_VIDEO_INFO_FPS_N(&vi);
    GST_VIDEO_INFO_FPS_D(&out) = GST_VIDEO_INFO_FPS_D(&vi);
    out.colorimetry = vi.colorimetry;
    GstBuffer *buf = gst_buffer_new_allocate(NULL, GST_VIDEO_INFO_SIZE(&out), NULL);
    GstMapInfo map;
    if (!buf || !gst_buffer_map(buf, &map, GST_MAP_WRITE)) {
        gst_video_frame_unmap(&frame);
        if (buf) gst_buffer_unref(buf);
        return NULL;
    }
    gint ostride = GST_VIDEO_INFO_PLANE_STRIDE(&out, 0);
    for (gint row = 0; row < ch; row++)
        memcpy(map.data + (gsize)row * ostride, src + (gsize)(y + row) * stride + (gsize)x * ps, (gsize)cw * ps);
    gst_buffer_unmap(buf, &map);
    gst_video_frame_unmap(&frame);
    GST_BUFFER_PTS(buf) = GST_BUFFER_PTS(inbuf);
    GstCaps *caps = gst_video_info_to_caps(&out);
    GstSample *result = gst_sample_new(buf, caps, gst_sample_get_segment(sample), NULL);
    gst_caps_unref(caps);
    gst_buffer_unref(buf);
    return result;
}
// A sample as PNG (gst_video_convert_sample), encoded at width x height with square pixels;
// 0 for either: the sample's own size in square pixels. Takes `sample`. Returns transfer full
// bytes (g_free) and *size, or NULL.
static guint8 *sample_png(GstSample *sample, gint width, gint height, gsize *size, GError **error) {
    // The sink's sample may be scaled to the window (playbin's videoscale before ximagesink):
    // encode at the size asked for, else at the sample's own size in square pixels.
    if (width <= 0 || height <= 0) {
        GstCaps *in = gst_sample_get_caps(sample);  // borrowed
        GstStructure *st = (in && gst_caps_get_size(in) > 0) ? gst_caps_get_structure(in, 0) : NULL;
        gint w = 0, h = 0, pn = 1, pd = 1;
        if (st && gst_structure_get_int(st, "width", &w) && gst_structure_get_int(st, "height", &h)) {
            if (!gst_structure_get_fraction(st, "pixel-aspect-ratio", &pn, &pd) || pn <= 0 || pd <= 0) { pn = 1; pd = 1; }
            width = (gint)gst_util_uint64_scale_int_round((guint64)w, pn, pd);
            height = h;
        }
    } else {
        // playbin's videoscale letterboxes the picture into the window's size (add-borders): cut
        // the bars away before scaling back (packed formats, as display sinks take; a crop meta
        // is no use: 1.22's convert_sample applies it after scaling, with the wrong bottom).
        GstSample *cropped = crop_bars(sample, (double)width / height);
        if (cropped) { gst_sample_unref(sample); sample = cropped; }
    }
    GstCaps *to = (width > 0 && height > 0)
        ? gst_caps_new_simple("image/png", "width", G_TYPE_INT, width, "height", G_TYPE_INT, height,
                              "pixel-aspect-ratio", GST_TYPE_FRACTION, 1, 1, NULL)
        : gst_caps_new_simple("image/png", NULL, NULL);
    GstSample *png = gst_video_convert_sample(sample, to, 5 * GST_SECOND, error);
    gst_caps_unref(to);
    gst_sample_unref(sample);
    if (png == NULL) return NULL;
    GstBuffer *buf = gst_sample_get_buffer(png);
    GstMapInfo map;
    guint8 *out = NULL;
    if (buf && gst_buffer_map(buf, &map, GST_MAP_READ)) {
        out = g_malloc(map.size);
        memcpy(out, map.data, map.size);
        *size = map.size;
        gst_buffer_unmap(buf, &map);
    }
    gst_sample_unref(png);
    return out;
}

// Snapshot of the last rendered frame as PNG (playbin "sample").
static guint8 *snapshot_png(GstElement *playbin, gint width, gint height, gsize *size, GError **error) {
    GstSample *sample = NULL;
    g_object_get(G_OBJECT(playbin), "sample", &sample, NULL);
    if (sample == NULL) return NULL;
    return sample_png(sample, width, height, size, error);
}

static uint8_t *png_or_message(guint8 *bytes, gsize n, GError *error, size_t *size, char **error_message) {
    if (error) {
        if (error_message) *error_message = g_strdup(error->message);
        g_error_free(error);
    }
    if (size) *size = n;
    return bytes;
}

uint8_t *reel_frame_snapshot_png(void *playbin, int width, int height, size_t *size, char **error_message) {
    GError *error = NULL;
    gsize n = 0;
    guint8 *bytes = snapshot_png(GST_ELEMENT(playbin), width, height, &n, &error);
    return png_or_message(bytes, n, error, size, error_message);
}

// ---- the frame catcher -------------------------------------------------------------------------

#define REEL_MAX_TARGETS 64

// How many recent frames a catcher keeps for `reel_frame_catcher_frame_at_png`: more than
// playsink's video queue holds ahead of the sink.
#define REEL_RING 12

struct ReelFrameCatcher {
    GMutex lock;
    GstPad *pad;          // the video sink's sink pad (a reference)
    gulong probe;
    guint64 targets[REEL_MAX_TARGETS];  // ascending, ns; those not caught yet
    size_t target_count;
    GstSample *previous;  // the last frame seen (a reference), with its caps and segment
    GstSegment segment;   // the last TIME segment: frames are placed by their stream time
    gboolean have_segment;
    GstSample *caught[REEL_MAX_TARGETS];
    guint64 caught_target[REEL_MAX_TARGETS];
    size_t caught_count;
    gboolean keep_last;   // keep copies of the last frames (`reel_frame_catcher_frame_at_png`)
    GstSample *ring[REEL_RING];  // copies (never the pipeline's own buffers: a bounded pool would starve)
    guint64 ring_pts[REEL_RING];
    size_t ring_next;
};

// Every target at or before `limit` (ns; G_MAXUINT64 for the end of the stream) was on screen
// as `frame`: they are caught with it. Called with the lock held.
static void catch_up_to(struct ReelFrameCatcher *c, guint64 limit, GstSample *frame) {
    size_t kept = 0;
    for (size_t i = 0; i < c->target_count; i++) {
        if (c->targets[i] < limit && frame != NULL && c->caught_count < REEL_MAX_TARGETS) {
            c->caught[c->caught_count] = gst_sample_ref(frame);
            c->caught_target[c->caught_count] = c->targets[i];
            c->caught_count++;
        } else {
            c->targets[kept++] = c->targets[i];
        }
    }
    c->target_count = kept;
}

// Streaming thread: a buffer reaching the sink, or EOS. A target T is caught by the last frame
// whose PTS <= T, known once a frame with PTS > T arrives (or the stream ends).
static GstPadProbeReturn catcher_probe(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    struct ReelFrameCatcher *c = data;
    if (info->type & GST_PAD_PROBE_TYPE_BUFFER) {
        GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER(info);
        if (buffer == NULL || !GST_BUFFER_PTS_IS_VALID(buffer)) return GST_PAD_PROBE_OK;
        // Targets are positions (stream time): an MPEG-TS stream's PTS starts anywhere (an
        // hour in, for GStreamer's muxer), so the PTS goes through the segment.
        guint64 pts = GST_BUFFER_PTS(buffer);
        // Every target caught (or none set): nothing to keep, no per-frame work.
        g_mutex_lock(&c->lock);
        gboolean keep = c->keep_last;
        g_mutex_unlock(&c->lock);
        if (keep) {
            GstBuffer *copy = gst_buffer_copy_deep(buffer);
            GstCaps *caps = gst_pad_get_current_caps(pad);
            if (copy && caps) {
                GstSample *kept = gst_sample_new(copy, caps, NULL, NULL);
                g_mutex_lock(&c->lock);
                if (c->ring[c->ring_next]) gst_sample_unref(c->ring[c->ring_next]);
                c->ring[c->ring_next] = kept;
                c->ring_pts[c->ring_next] = pts;
                c->ring_next = (c->ring_next + 1) % REEL_RING;
                g_mutex_unlock(&c->lock);
            }
            if (copy) gst_buffer_unref(copy);
            if (caps) gst_caps_unref(caps);
        }
        g_mutex_lock(&c->lock);
        gboolean idle = c->target_count == 0;
        if (idle && c->previous) { gst_sample_unref(c->previous); c->previous = NULL; }
        g_mutex_unlock(&c->lock);
        if (idle) return GST_PAD_PROBE_OK;
        GstCaps *caps = gst_pad_get_current_caps(pad);
        g_mutex_lock(&c->lock);
        GstSample *frame = gst_sample_new(buffer, caps, c->have_segment ? &c->segment : NULL, NULL);
        if (c->have_segment) {
            guint64 st = gst_segment_to_stream_time(&c->segment, GST_FORMAT_TIME, pts);
            if (GST_CLOCK_TIME_IS_VALID(st)) pts = st;
        }
        if (caps) gst_caps_unref(caps);
        // Targets before this frame's PTS were on screen as the previous frame.
        catch_up_to(c, pts, c->previous);
        if (c->previous) gst_sample_unref(c->previous);
        c->previous = frame;
        g_mutex_unlock(&c->lock);
    } else if (info->type & GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM) {
        GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
        if (event && GST_EVENT_TYPE(event) == GST_EVENT_EOS) {
            g_mutex_lock(&c->lock);
            catch_up_to(c, G_MAXUINT64, c->previous);
            g_mutex_unlock(&c->lock);
        } else if (event && GST_EVENT_TYPE(event) == GST_EVENT_SEGMENT) {
            const GstSegment *segment = NULL;
            gst_event_parse_segment(event, &segment);
            g_mutex_lock(&c->lock);
            c->have_segment = segment != NULL && segment->format == GST_FORMAT_TIME;
            if (c->have_segment) gst_segment_copy_into(segment, &c->segment);
            g_mutex_unlock(&c->lock);
        } else if (event && GST_EVENT_TYPE(event) == GST_EVENT_FLUSH_STOP) {
            g_mutex_lock(&c->lock);
            if (c->previous) { gst_sample_unref(c->previous); c->previous = NULL; }
            for (size_t i = 0; i < REEL_RING; i++) if (c->ring[i]) { gst_sample_unref(c->ring[i]); c->ring[i] = NULL; }
            g_mutex_unlock(&c->lock);
        }
    }
    return GST_PAD_PROBE_OK;
}

static void catcher_destroy(gpointer data);

ReelFrameCatcher *reel_frame_catcher_new(void *sink) {
    return reel_frame_catcher_new_on(sink, "sink");
}

ReelFrameCatcher *reel_frame_catcher_new_on(void *element, const char *pad_name) {
    GstPad *pad = gst_element_get_static_pad(GST_ELEMENT(element), pad_name);  // transfer full
    if (pad == NULL) return NULL;
    struct ReelFrameCatcher *c = g_new0(struct ReelFrameCatcher, 1);
    g_mutex_init(&c->lock);
    c->pad = pad;
    // The probe owns the struct: GStreamer calls `catcher_destroy` once the probe is removed and
    // no streaming thread is inside `catcher_probe` any more.
    c->probe = gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, catcher_probe, c,
                                 catcher_destroy);
    return c;
}

void reel_frame_catcher_set_targets(ReelFrameCatcher *c, const uint64_t *targets_ns, size_t count) {
    g_mutex_lock(&c->lock);
    c->target_count = 0;
    for (size_t i = 0; i < count && i < REEL_MAX_TARGETS; i++) c->targets[c->target_count++] = targets_ns[i];
    for (size_t i = 0; i < c->caught_count; i++) gst_sample_unref(c->caught[i]);
    c->caught_count = 0;
    // A new item's frames start again: the previous item's last frame is not a candidate.
    if (c->previous) { gst_sample_unref(c->previous); c->previous = NULL; }
    g_mutex_unlock(&c->lock);
}

uint8_t *reel_frame_catcher_take_png(ReelFrameCatcher *c, int width, int height, uint64_t *target_ns, uint64_t *pts_ns,
                                     size_t *size, char **error_message, int *taken) {
    *taken = 0;
    g_mutex_lock(&c->lock);
    GstSample *frame = NULL;
    if (c->caught_count > 0) {
        frame = c->caught[0];
        *target_ns = c->caught_target[0];
        memmove(&c->caught[0], &c->caught[1], (c->caught_count - 1) * sizeof(GstSample *));
        memmove(&c->caught_target[0], &c->caught_target[1], (c->caught_count - 1) * sizeof(guint64));
        c->caught_count--;
    }
    g_mutex_unlock(&c->lock);
    if (frame == NULL) return NULL;
    *taken = 1;
    GstBuffer *buffer = gst_sample_get_buffer(frame);
    *pts_ns = buffer ? GST_BUFFER_PTS(buffer) : GST_CLOCK_TIME_NONE;
    // Its position: the PTS through the segment it came in (stream time), when it has one.
    GstSegment *segment = gst_sample_get_segment(frame);
    if (buffer && segment && segment->format == GST_FORMAT_TIME) {
        guint64 st = gst_segment_to_stream_time(segment, GST_FORMAT_TIME, *pts_ns);
        if (GST_CLOCK_TIME_IS_VALID(st)) *pts_ns = st;
    }
    GError *error = NULL;
    gsize n = 0;
    guint8 *bytes = sample_png(frame, width, height, &n, &error);  // takes `frame`
    return png_or_message(bytes, n, error, size, error_message);
}

void reel_frame_catcher_keep_last(ReelFrameCatcher *c, int keep) {
    g_mutex_lock(&c->lock);
    c->keep_last = keep != 0;
    g_mutex_unlock(&c->lock);
}

uint8_t *reel_frame_catcher_frame_at_png(ReelFrameCatcher *c, uint64_t pts, int width, int height, uint64_t *found_pts, size_t *size, char **error_message) {
    g_mutex_lock(&c->lock);
    GstSample *frame = NULL;
    guint64 best = 0;
    for (size_t i = 0; i < REEL_RING; i++) {
        if (c->ring[i] && c->ring_pts[i] <= pts + 1000000 && (frame == NULL || c->ring_pts[i] > best)) {
            frame = c->ring[i];
            best = c->ring_pts[i];
        }
    }
    if (frame) gst_sample_ref(frame);
    g_mutex_unlock(&c->lock);
    *found_pts = frame ? best : GST_CLOCK_TIME_NONE;
    if (frame == NULL) return NULL;
    GError *error = NULL;
    gsize n = 0;
    guint8 *bytes = sample_png(frame, width, height, &n, &error);  // takes `frame`
    return png_or_message(bytes, n, error, size, error_message);
}

// Frees the struct: the probe's destroy notify (no probe callback can be running).
static void catcher_destroy(gpointer data) {
    struct ReelFrameCatcher *c = data;
    if (c->previous) gst_sample_unref(c->previous);
    for (size_t i = 0; i < c->caught_count; i++) gst_sample_unref(c->caught[i]);
    for (size_t i = 0; i < REEL_RING; i++) if (c->ring[i]) gst_sample_unref(c->ring[i]);
    g_mutex_clear(&c->lock);
    g_free(c);
}

// Removes the probe; the struct goes with it (`catcher_destroy`), possibly after a streaming
// thread still inside the probe has left it.
void reel_frame_catcher_free(ReelFrameCatcher *c) {
    if (c == NULL) return;
    GstPad *pad = c->pad;
    gst_pad_remove_probe(pad, c->probe);
    gst_object_unref(pad);
}

void reel_frame_free(void *bytes) { g_free(bytes); }

// ---- picture and sound statistics for reel check ------------------------------------------------

int reel_frame_snapshot_luma(void *playbin, uint8_t *out, int width, int height) {
    GstSample *sample = NULL;
    g_object_get(G_OBJECT(playbin), "sample", &sample, NULL);
    if (sample == NULL) return 0;
    GstCaps *to = gst_caps_new_simple("video/x-raw", "format", G_TYPE_STRING, "GRAY8", "width", G_TYPE_INT, width,
                                      "height", G_TYPE_INT, height, "pixel-aspect-ratio", GST_TYPE_FRACTION, 1, 1, NULL);
    GstSample *gray = gst_video_convert_sample(sample, to, 5 * GST_SECOND, NULL);
    gst_caps_unref(to);
    gst_sample_unref(sample);
    if (gray == NULL) return 0;
    int ok = 0;
    GstVideoInfo info;
    GstBuffer *buf = gst_sample_get_buffer(gray);
    if (buf && gst_video_info_from_caps(&info, gst_sample_get_caps(gray))) {
        GstVideoFrame frame;
        if (gst_video_frame_map(&frame, &info, buf, GST_MAP_READ)) {
            const guint8 *data = GST_VIDEO_FRAME_PLANE_DATA(&frame, 0);
            gint stride = GST_VIDEO_FRAME_PLANE_STRIDE(&frame, 0);
            for (int y = 0; y < height; y++) memcpy(out + (size_t)y * width, data + (size_t)y * stride, (size_t)width);
            gst_video_frame_unmap(&frame);
            ok = 1;
        }
    }
    gst_sample_unref(gray);
    return ok;
}

struct ReelAudioMeter {
    GMutex lock;
    GstPad *pad;
    gulong probe;
    double peak;      // 0…1 of full scale
    guint64 samples;  // counted samples (all channels)
};

static GstPadProbeReturn meter_probe(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    struct ReelAudioMeter *m = data;
    GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER(info);
    GstCaps *caps = gst_pad_get_current_caps(pad);
    if (buffer == NULL || caps == NULL) { if (caps) gst_caps_unref(caps); return GST_PAD_PROBE_OK; }
    GstStructure *st = gst_caps_get_structure(caps, 0);
    const gchar *format = gst_structure_get_string(st, "format");
    GstMapInfo map;
    if (format && gst_buffer_map(buffer, &map, GST_MAP_READ)) {
        double peak = 0;
        guint64 n = 0;
        if (g_str_equal(format, "F32LE")) {
            const float *s = (const float *)map.data; n = map.size / 4;
            for (guint64 i = 0; i < n; i++) { double v = fabs((double)s[i]); if (v > peak) peak = v; }
        } else if (g_str_equal(format, "F64LE")) {
            const double *s = (const double *)map.data; n = map.size / 8;
            for (guint64 i = 0; i < n; i++) { double v = fabs(s[i]); if (v > peak) peak = v; }
        } else if (g_str_equal(format, "S16LE")) {
            const gint16 *s = (const gint16 *)map.data; n = map.size / 2;
            for (guint64 i = 0; i < n; i++) { double v = fabs((double)s[i]) / 32768.0; if (v > peak) peak = v; }
        } else if (g_str_equal(format, "S32LE")) {
            const gint32 *s = (const gint32 *)map.data; n = map.size / 4;
            for (guint64 i = 0; i < n; i++) { double v = fabs((double)s[i]) / 2147483648.0; if (v > peak) peak = v; }
        }
        gst_buffer_unmap(buffer, &map);
        g_mutex_lock(&m->lock);
        if (peak > m->peak) m->peak = peak;
        m->samples += n;
        g_mutex_unlock(&m->lock);
    }
    gst_caps_unref(caps);
    return GST_PAD_PROBE_OK;
}

ReelAudioMeter *reel_audio_meter_new(void *sink) {
    GstPad *pad = gst_element_get_static_pad(GST_ELEMENT(sink), "sink");
    if (pad == NULL) return NULL;
    struct ReelAudioMeter *m = g_new0(struct ReelAudioMeter, 1);
    g_mutex_init(&m->lock);
    m->pad = pad;
    m->probe = gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, meter_probe, m, NULL);
    return m;
}

double reel_audio_meter_peak(ReelAudioMeter *m, uint64_t *samples) {
    g_mutex_lock(&m->lock);
    double peak = m->peak;
    if (samples) *samples = m->samples;
    g_mutex_unlock(&m->lock);
    return peak;
}

void reel_audio_meter_free(ReelAudioMeter *m) {
    if (m == NULL) return;
    gst_pad_remove_probe(m->pad, m->probe);
    gst_object_unref(m->pad);
    g_mutex_clear(&m->lock);
    g_free(m);
}
