// Thin shims over GStreamer for Swift. Only what Swift cannot import: macros, variadic calls,
// signal connection with typed callbacks. No logic lives here.
//
// Ownership: every function says what it returns.
//   "transfer full"  — the caller owns one reference and must unref it exactly once.
//   "transfer none"  — borrowed; valid while the argument is alive; do not unref.
// NOTE: SwiftPM does not rebuild Swift modules when only this header changes; `make` clears the
// affected build products when shim headers change (see Makefile: shims-stamp).
#ifndef REEL_CGSTREAMER_SHIM_H
#define REEL_CGSTREAMER_SHIM_H

#include <gst/gst.h>
#include <gst/video/video.h>
#include <gst/video/videooverlay.h>
#include <gst/audio/audio.h>
#include <gst/pbutils/pbutils.h>
#include <string.h>

// ---- constants ---------------------------------------------------------------------------------
static inline guint64 reel_gst_second(void) { return GST_SECOND; }
static inline guint64 reel_gst_clock_time_none(void) { return GST_CLOCK_TIME_NONE; }
static inline gboolean reel_gst_clock_time_is_valid(guint64 t) { return GST_CLOCK_TIME_IS_VALID(t); }

// ---- casts (transfer none) ---------------------------------------------------------------------
static inline GstElement *reel_gst_element(gpointer p) { return GST_ELEMENT(p); }
static inline GstObject *reel_gst_object(gpointer p) { return GST_OBJECT(p); }

// ---- messages (all transfer none) ----------------------------------------------------------------
static inline GstMessageType reel_message_type(GstMessage *m) { return GST_MESSAGE_TYPE(m); }
static inline GstObject *reel_message_src(GstMessage *m) { return GST_MESSAGE_SRC(m); }
static inline guint32 reel_message_seqnum(GstMessage *m) { return GST_MESSAGE_SEQNUM(m); }

// Error details: reads an unsigned "http-status-code" from the error details if present.
static inline guint reel_message_error_http_status(GstMessage *m) {
    const GstStructure *details = NULL;
    guint status = 0;
    gst_message_parse_error_details(m, &details);
    if (details != NULL) {
        if (!gst_structure_get_uint(details, "http-status-code", &status)) {
            gint s = 0;
            if (gst_structure_get_int(details, "http-status-code", &s)) status = (guint)s;
        }
    }
    return status;
}

static inline gint64 reel_app_message_value(GstMessage *m) {
    const GstStructure *s = gst_message_get_structure(m);
    gint64 v = 0;
    if (s) gst_structure_get_int64(s, "value", &v);
    return v;
}

// ---- properties ----------------------------------------------------------------------------------
static inline void reel_set_string(gpointer o, const gchar *name, const gchar *v) { g_object_set(G_OBJECT(o), name, v, NULL); }
static inline void reel_set_bool(gpointer o, const gchar *name, gboolean v) { g_object_set(G_OBJECT(o), name, v, NULL); }
static inline void reel_set_uint(gpointer o, const gchar *name, guint v) { g_object_set(G_OBJECT(o), name, v, NULL); }
static inline void reel_set_uint64(gpointer o, const gchar *name, guint64 v) { g_object_set(G_OBJECT(o), name, v, NULL); }
static inline void reel_set_int(gpointer o, const gchar *name, gint v) { g_object_set(G_OBJECT(o), name, v, NULL); }
static inline void reel_set_double(gpointer o, const gchar *name, gdouble v) { g_object_set(G_OBJECT(o), name, v, NULL); }
static inline void reel_set_int64(gpointer o, const gchar *name, gint64 v) { g_object_set(G_OBJECT(o), name, v, NULL); }
// The object keeps its own reference to v (sinks a floating one): for playbin's sinks this
// transfers the floating reference to playbin.
static inline void reel_set_object(gpointer o, const gchar *name, gpointer v) { g_object_set(G_OBJECT(o), name, v, NULL); }

static inline gboolean reel_get_bool(gpointer o, const gchar *name) { gboolean v = FALSE; g_object_get(G_OBJECT(o), name, &v, NULL); return v; }
static inline gdouble reel_get_double(gpointer o, const gchar *name) { gdouble v = 0; g_object_get(G_OBJECT(o), name, &v, NULL); return v; }
static inline gint64 reel_get_int64(gpointer o, const gchar *name) { gint64 v = 0; g_object_get(G_OBJECT(o), name, &v, NULL); return v; }
static inline guint reel_get_uint(gpointer o, const gchar *name) { guint v = 0; g_object_get(G_OBJECT(o), name, &v, NULL); return v; }
static inline guint64 reel_get_uint64(gpointer o, const gchar *name) { guint64 v = 0; g_object_get(G_OBJECT(o), name, &v, NULL); return v; }
// transfer full: gst_object_unref / g_object_unref the result (may be NULL).
static inline gpointer reel_get_object(gpointer o, const gchar *name) { gpointer v = NULL; g_object_get(G_OBJECT(o), name, &v, NULL); return v; }
static inline gboolean reel_has_property(gpointer o, const gchar *name) { return g_object_class_find_property(G_OBJECT_GET_CLASS(o), name) != NULL; }
// transfer full: g_free the result (may be NULL).
static inline gchar *reel_get_string(gpointer o, const gchar *name) { gchar *v = NULL; g_object_get(G_OBJECT(o), name, &v, NULL); return v; }
static inline void reel_set_fraction(gpointer o, const gchar *name, gint n, gint d) { g_object_set(G_OBJECT(o), name, n, d, NULL); }
// Sets a GstCaps property from its string form; FALSE when the string is not caps.
static inline gboolean reel_set_caps_string(gpointer o, const gchar *name, const gchar *text) {
    GstCaps *caps = gst_caps_from_string(text);
    if (!caps) return FALSE;
    g_object_set(G_OBJECT(o), name, caps, NULL);
    gst_caps_unref(caps);
    return TRUE;
}

// extra-headers on an HTTP source (souphttpsrc). Copies name/value.
static inline void reel_source_add_header(GstElement *src, const gchar *name, const gchar *value) {
    if (!g_object_class_find_property(G_OBJECT_GET_CLASS(src), "extra-headers")) return;
    GstStructure *h = NULL;
    g_object_get(G_OBJECT(src), "extra-headers", &h, NULL);
    if (h == NULL) h = gst_structure_new_empty("extra-headers");
    gst_structure_set(h, name, G_TYPE_STRING, value, NULL);
    g_object_set(G_OBJECT(src), "extra-headers", h, NULL);
    gst_structure_free(h);
}

// ---- signals: typed connect shims ----------------------------------------------------------------
typedef void (*ReelElementCallback)(GstElement *self, gpointer user_data);
typedef void (*ReelElementElementCallback)(GstElement *self, GstElement *other, gpointer user_data);

// "about-to-finish" on playbin3: called from a streaming thread.
static inline gulong reel_connect_about_to_finish(GstElement *playbin, ReelElementCallback cb, gpointer user_data) {
    return g_signal_connect(playbin, "about-to-finish", G_CALLBACK(cb), user_data);
}
// "source-setup" on playbin3: called from a streaming thread; source is transfer none.
static inline gulong reel_connect_source_setup(GstElement *playbin, ReelElementElementCallback cb, gpointer user_data) {
    return g_signal_connect(playbin, "source-setup", G_CALLBACK(cb), user_data);
}
// "element-setup" on playbin3: every element added to playbin3 or any of its sub-bins (the
// adaptive demuxer inside urisourcebin among them); any thread; element is transfer none.
static inline gulong reel_connect_element_setup(GstElement *playbin, ReelElementElementCallback cb, gpointer user_data) {
    return g_signal_connect(playbin, "element-setup", G_CALLBACK(cb), user_data);
}
static inline void reel_signal_disconnect(gpointer o, gulong id) { g_signal_handler_disconnect(o, id); }

// ---- pipeline helpers ------------------------------------------------------------------------------
// transfer full (ref-sunk, not floating): unref with gst_object_unref. NULL if the factory is missing.
static inline GstElement *reel_make_element(const gchar *factory, const gchar *name) {
    GstElement *e = gst_element_factory_make(factory, name);
    if (e) gst_object_ref_sink(e);
    return e;
}
// transfer full: the element of `bin` named `name`, or NULL.
static inline GstElement *reel_bin_get_by_name(GstElement *bin, const gchar *name) { return gst_bin_get_by_name(GST_BIN(bin), name); }
// transfer full (ref-sunk): parse "a ! b" into a bin with ghost pads; NULL and *error set on failure
// (g_error_free it). A single element description yields that element.
static inline GstElement *reel_parse_bin(const gchar *description, GError **error) {
    GstElement *e = gst_parse_bin_from_description(description, TRUE, error);
    if (e) gst_object_ref_sink(e);
    return e;
}

// transfer full (ref-sunk): parse "a ! b" into a bin whose pads are ghosts of `first`'s pad
// `first_pad` ("sink") and `last`'s "src" (elements named in the description) — for bins with
// other unlinked pads (textoverlay's text_sink), which parse's own ghosting might pick instead.
static inline GstElement *reel_parse_filter_bin(const gchar *description, const gchar *first, const gchar *first_pad,
                                                const gchar *last, GError **error) {
    GstElement *bin = gst_parse_bin_from_description(description, FALSE, error);
    if (bin == NULL) return NULL;
    gst_object_ref_sink(bin);
    GstElement *a = gst_bin_get_by_name(GST_BIN(bin), first), *b = gst_bin_get_by_name(GST_BIN(bin), last);
    GstPad *in = a ? gst_element_get_static_pad(a, first_pad) : NULL, *out = b ? gst_element_get_static_pad(b, "src") : NULL;
    gboolean ok = in && out && gst_element_add_pad(bin, gst_ghost_pad_new("sink", in)) && gst_element_add_pad(bin, gst_ghost_pad_new("src", out));
    if (in) gst_object_unref(in);
    if (out) gst_object_unref(out);
    if (a) gst_object_unref(a);
    if (b) gst_object_unref(b);
    if (!ok) { gst_object_unref(bin); return NULL; }
    return bin;
}

// Video overlay: hand the sink (or the first overlay inside a bin) an X11 window id.
// Where in its window an overlay sink draws (waylandsink: its subsurface's place and size in the
// toplevel surface). FALSE when the sink has no overlay.
static inline gboolean reel_set_render_rectangle(GstElement *sink, gint x, gint y, gint w, gint h) {
    if (sink == NULL) return FALSE;
    GstElement *o = NULL;
    if (GST_IS_VIDEO_OVERLAY(sink)) o = GST_ELEMENT(gst_object_ref(sink));
    else if (GST_IS_BIN(sink)) o = gst_bin_get_by_interface(GST_BIN(sink), GST_TYPE_VIDEO_OVERLAY);
    if (o == NULL) return FALSE;
    gst_video_overlay_set_render_rectangle(GST_VIDEO_OVERLAY(o), x, y, w, h);
    gst_object_unref(o);
    return TRUE;
}
// Gives a sink (or every element of a bin) the application's wl_display, as waylandsink 1.22 asks
// for it (gst-libs/gst/wayland/gstwlcontext.h: "GstWlDisplayHandleContextType", field "display";
// before 1.22 it was "GstWaylandDisplayHandleContextType", "handle"): it must draw on the
// connection that owns the window's surface, never on one of its own. Set before it leaves NULL.
static inline void reel_set_wayland_display(GstElement *sink, gpointer display) {
    if (sink == NULL || display == NULL) return;
    GstContext *c = gst_context_new("GstWlDisplayHandleContextType", TRUE);
    gst_structure_set(gst_context_writable_structure(c), "display", G_TYPE_POINTER, display, NULL);
    gst_element_set_context(sink, c);
    gst_context_unref(c);
}
static inline gboolean reel_set_window_handle(GstElement *sink, guintptr handle) {
    if (sink == NULL) return FALSE;
    if (GST_IS_VIDEO_OVERLAY(sink)) {
        gst_video_overlay_set_window_handle(GST_VIDEO_OVERLAY(sink), handle);
        return TRUE;
    }
    if (GST_IS_BIN(sink)) {
        GstElement *o = gst_bin_get_by_interface(GST_BIN(sink), GST_TYPE_VIDEO_OVERLAY);
        if (o) {
            gst_video_overlay_set_window_handle(GST_VIDEO_OVERLAY(o), handle);
            gst_object_unref(o);
            return TRUE;
        }
    }
    return FALSE;
}
static inline void reel_overlay_expose(GstElement *sink) {
    if (sink == NULL) return;
    if (GST_IS_VIDEO_OVERLAY(sink)) { gst_video_overlay_expose(GST_VIDEO_OVERLAY(sink)); return; }
    if (GST_IS_BIN(sink)) {
        GstElement *o = gst_bin_get_by_interface(GST_BIN(sink), GST_TYPE_VIDEO_OVERLAY);
        if (o) { gst_video_overlay_expose(GST_VIDEO_OVERLAY(o)); gst_object_unref(o); }
    }
}

// The negotiated video format on an element's pad `pad_name` ("sink"; textoverlay's
// "video_sink"): FALSE when it has no caps yet.
static inline gboolean reel_pad_video_info(GstElement *element, const gchar *pad_name, GstVideoInfo *info) {
    if (element == NULL) return FALSE;
    GstPad *pad = gst_element_get_static_pad(element, pad_name);
    if (pad == NULL) return FALSE;
    GstCaps *caps = gst_pad_get_current_caps(pad);
    gst_object_unref(pad);
    if (caps == NULL) return FALSE;
    gboolean ok = gst_video_info_from_caps(info, caps);
    gst_caps_unref(caps);
    return ok;
}

static inline gboolean reel_pad_video_size(GstElement *element, const gchar *pad_name, gint *width, gint *height) {
    GstVideoInfo info;
    if (!reel_pad_video_info(element, pad_name, &info)) return FALSE;
    *width = GST_VIDEO_INFO_WIDTH(&info);
    *height = GST_VIDEO_INFO_HEIGHT(&info);
    return TRUE;
}

// Current negotiated video size on the video sink's sink pad. Returns FALSE if not negotiated.
static inline gboolean reel_video_sink_size(GstElement *videosink, gint *width, gint *height, gint *fps_n, gint *fps_d) {
    GstVideoInfo info;
    if (!reel_pad_video_info(videosink, "sink", &info)) return FALSE;
    *width = GST_VIDEO_INFO_WIDTH(&info);
    *height = GST_VIDEO_INFO_HEIGHT(&info);
    *fps_n = GST_VIDEO_INFO_FPS_N(&info);
    *fps_d = GST_VIDEO_INFO_FPS_D(&info);
    return TRUE;
}

/// The codec of `caps` in words (transfer full, g_free), NULL for empty or ANY caps. Caps that are
/// not fixed (dashdemux2's streams carry a range or a list: `profile={ … }`) are fixated on a copy
/// first: gst_pb_utils_get_codec_description asserts fixed caps (a CRITICAL on stderr, and NULL).
static inline gchar *reel_caps_codec_description(const GstCaps *caps) {
    if (caps == NULL || gst_caps_is_empty(caps) || gst_caps_is_any(caps)) return NULL;
    if (gst_caps_is_fixed(caps)) return gst_pb_utils_get_codec_description(caps);
    GstCaps *fixed = gst_caps_fixate(gst_caps_copy(caps));
    gchar *desc = gst_caps_is_fixed(fixed) ? gst_pb_utils_get_codec_description(fixed) : NULL;
    gst_caps_unref(fixed);
    return desc;
}
// Stream collection: stream i's type (GstStreamType flags), and codec description (transfer full, g_free).
static inline GstStreamType reel_stream_type(GstStream *s) { return gst_stream_get_stream_type(s); }
static inline gchar *reel_stream_codec_description(GstStream *s) {
    GstCaps *caps = gst_stream_get_caps(s);
    gchar *desc = NULL;
    if (caps) {
        desc = reel_caps_codec_description(caps);
        gst_caps_unref(caps);
    }
    if (desc == NULL) {
        GstTagList *tags = gst_stream_get_tags(s);
        if (tags) {
            gchar *c = NULL;
            if (gst_tag_list_get_string(tags, GST_TAG_VIDEO_CODEC, &c) || gst_tag_list_get_string(tags, GST_TAG_AUDIO_CODEC, &c)) desc = c;
            gst_tag_list_unref(tags);
        }
    }
    return desc;
}
static inline gboolean reel_stream_video_size(GstStream *s, gint *w, gint *h) {
    GstCaps *caps = gst_stream_get_caps(s);
    gboolean ok = FALSE;
    if (caps && gst_caps_get_size(caps) > 0) {
        GstStructure *st = gst_caps_get_structure(caps, 0);
        ok = gst_structure_get_int(st, "width", w) && gst_structure_get_int(st, "height", h);
    }
    if (caps) gst_caps_unref(caps);
    return ok;
}
// A stream's string tag (GST_TAG_LANGUAGE_CODE, GST_TAG_TITLE…): transfer full (g_free) or NULL.
static inline gchar *reel_stream_tag_string(GstStream *s, const gchar *tag) {
    GstTagList *tags = gst_stream_get_tags(s);
    gchar *v = NULL;
    if (tags) {
        if (!gst_tag_list_get_string(tags, tag, &v)) v = NULL;
        gst_tag_list_unref(tags);
    }
    return v;
}
static inline const gchar *reel_stream_id(GstStream *s) { return gst_stream_get_stream_id(s); }
// Sends playbin3 a select-streams event with these stream ids (the strings are copied).
static inline gboolean reel_select_streams(GstElement *e, const gchar *const *ids, guint n) {
    GList *list = NULL;
    for (guint i = 0; i < n; i++) list = g_list_append(list, (gpointer)ids[i]);
    GstEvent *ev = gst_event_new_select_streams(list);
    g_list_free(list);
    return gst_element_send_event(e, ev);
}
// STREAMS_SELECTED: the i-th selected stream's id (transfer full, g_free) or NULL.
static inline guint reel_streams_selected_count(GstMessage *m) { return gst_message_streams_selected_get_size(m); }
static inline gchar *reel_streams_selected_id(GstMessage *m, guint i) {
    GstStream *s = gst_message_streams_selected_get_stream(m, i);
    if (!s) return NULL;
    gchar *id = g_strdup(gst_stream_get_stream_id(s));
    gst_object_unref(s);
    return id;
}
// Title tag from a tag list: transfer full (g_free) or NULL.
static inline gchar *reel_taglist_title(GstTagList *tags) {
    gchar *t = NULL;
    if (tags && gst_tag_list_get_string(tags, GST_TAG_TITLE, &t)) return t;
    return NULL;
}

// The first picture of a tag list (an audio file's cover: "image", else "preview-image"), as
// the file holds it (JPEG, PNG …): a copy (g_free) and *size; NULL when there is none or it is
// over 16 MiB.
static inline guint8 *reel_taglist_image(GstTagList *tags, gsize *size) {
    const gchar *names[] = {GST_TAG_IMAGE, GST_TAG_PREVIEW_IMAGE};
    for (guint i = 0; tags && i < G_N_ELEMENTS(names); i++) {
        GstSample *sample = NULL;
        if (!gst_tag_list_get_sample_index(tags, names[i], 0, &sample) || sample == NULL) continue;
        GstBuffer *buffer = gst_sample_get_buffer(sample);
        guint8 *copy = NULL;
        GstMapInfo map;
        if (buffer && gst_buffer_map(buffer, &map, GST_MAP_READ)) {
            if (map.size > 0 && map.size <= (16u << 20)) { copy = g_memdup2(map.data, map.size); *size = map.size; }
            gst_buffer_unmap(buffer, &map);
        }
        gst_sample_unref(sample);
        if (copy) return copy;
    }
    return NULL;
}

// A video stream's picture size in square pixels (width corrected by its pixel-aspect-ratio).
static inline gboolean reel_stream_video_display_size(GstStream *s, gint *w, gint *h) {
    GstCaps *caps = gst_stream_get_caps(s);
    gboolean ok = FALSE;
    if (caps && gst_caps_get_size(caps) > 0) {
        GstStructure *st = gst_caps_get_structure(caps, 0);
        gint pn = 1, pd = 1;
        ok = gst_structure_get_int(st, "width", w) && gst_structure_get_int(st, "height", h) && *w > 0 && *h > 0;
        if (ok && gst_structure_get_fraction(st, "pixel-aspect-ratio", &pn, &pd) && pn > 0 && pd > 0)
            *w = (gint)gst_util_uint64_scale_int_round((guint64)*w, pn, pd);
    }
    if (caps) gst_caps_unref(caps);
    return ok;
}
// Position of the current "sample" (last rendered frame): its PTS as stream time through the
// sample's segment (an MPEG-TS stream's PTS starts anywhere), GST_CLOCK_TIME_NONE if none.
static inline guint64 reel_sample_pts(GstElement *playbin) {
    GstSample *sample = NULL;
    g_object_get(G_OBJECT(playbin), "sample", &sample, NULL);
    if (sample == NULL) return GST_CLOCK_TIME_NONE;
    GstBuffer *buf = gst_sample_get_buffer(sample);
    guint64 pts = buf ? GST_BUFFER_PTS(buf) : GST_CLOCK_TIME_NONE;
    GstSegment *segment = gst_sample_get_segment(sample);
    if (GST_CLOCK_TIME_IS_VALID(pts) && segment && segment->format == GST_FORMAT_TIME) {
        guint64 st = gst_segment_to_stream_time(segment, GST_FORMAT_TIME, pts);
        if (GST_CLOCK_TIME_IS_VALID(st)) pts = st;
    }
    gst_sample_unref(sample);
    return pts;
}

// Seeking query: whether seekable and the window [start, end] in ns (-1 unknown).
static inline gboolean reel_query_seeking(GstElement *e, gboolean *seekable, gint64 *start, gint64 *end) {
    GstQuery *q = gst_query_new_seeking(GST_FORMAT_TIME);
    gboolean ok = gst_element_query(e, q);
    if (ok) {
        GstFormat fmt;
        gst_query_parse_seeking(q, &fmt, seekable, start, end);
    }
    gst_query_unref(q);
    return ok;
}
// Step n frames (positive direction of the current rate). Transfer: the event is consumed.
static inline gboolean reel_step_frames(GstElement *e, guint64 n) {
    return gst_element_send_event(e, gst_event_new_step(GST_FORMAT_BUFFERS, n, 1.0, TRUE, FALSE));
}

// Pad probes that read what passes (the subtitle overlay's clock): a buffer's PTS
// (GST_CLOCK_TIME_NONE if the probe saw no buffer) and a copy of a TIME segment (FALSE if the
// probe saw no segment event), for gst_segment_to_stream_time.
static inline guint64 reel_probe_buffer_pts(GstPadProbeInfo *info) {
    if (!(GST_PAD_PROBE_INFO_TYPE(info) & GST_PAD_PROBE_TYPE_BUFFER)) return GST_CLOCK_TIME_NONE;
    GstBuffer *b = GST_PAD_PROBE_INFO_BUFFER(info);
    return b ? GST_BUFFER_PTS(b) : GST_CLOCK_TIME_NONE;
}
static inline gboolean reel_probe_segment(GstPadProbeInfo *info, GstSegment *out) {
    if (!(GST_PAD_PROBE_INFO_TYPE(info) & GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM)) return FALSE;
    GstEvent *e = GST_PAD_PROBE_INFO_EVENT(info);
    if (e == NULL || GST_EVENT_TYPE(e) != GST_EVENT_SEGMENT) return FALSE;
    const GstSegment *seg = NULL;
    gst_event_parse_segment(e, &seg);
    if (seg == NULL || seg->format != GST_FORMAT_TIME) return FALSE;
    gst_segment_copy_into(seg, out);
    return TRUE;
}

// The factory name of an element ("pulsesink"), NULL if it has none. Not to be freed.
static inline const gchar *reel_element_factory_name(GstElement *e) {
    GstElementFactory *f = gst_element_get_factory(e);
    return f ? gst_plugin_feature_get_name(GST_PLUGIN_FEATURE(f)) : NULL;
}
// Sets a GstStructure property from its text form ("props,media.role=video"); FALSE if unparsable.
static inline gboolean reel_set_structure_string(gpointer o, const gchar *name, const gchar *text) {
    GstStructure *s = gst_structure_from_string(text, NULL);
    if (s == NULL) return FALSE;
    g_object_set(G_OBJECT(o), name, s, NULL);
    gst_structure_free(s);
    return TRUE;
}
// The state a REQUEST_STATE message asks for.
static inline GstState reel_message_requested_state(GstMessage *m) {
    GstState s = GST_STATE_VOID_PENDING;
    gst_message_parse_request_state(m, &s);
    return s;
}

// MARK: Hardware decoding (see ReelEngine/HardwareDecoders.swift)

// Whether an element factory's klass names a video decoder on hardware
// ("Codec/Decoder/Video/Hardware": va, vaapi, nvcodec, v4l2codecs, msdk).
static inline gboolean reel_klass_has(const gchar *klass, const gchar *word) {
    if (!klass) return FALSE;
    gchar **parts = g_strsplit(klass, "/", -1);
    gboolean found = g_strv_contains((const gchar * const *)parts, word);
    g_strfreev(parts);
    return found;
}
static inline gboolean reel_klass_is_hardware_video_decoder(const gchar *klass) {
    return reel_klass_has(klass, "Decoder") && reel_klass_has(klass, "Video") && reel_klass_has(klass, "Hardware");
}
// Every video decoder factory in the registry, whatever its rank: names and klasses, index for
// index (transfer full: g_strfreev both).
static inline gchar **reel_video_decoder_factories(gchar ***klasses) {
    GList *list = gst_registry_get_feature_list(gst_registry_get(), GST_TYPE_ELEMENT_FACTORY);
    GPtrArray *names = g_ptr_array_new(), *kl = g_ptr_array_new();
    for (GList *l = list; l; l = l->next) {
        GstElementFactory *f = GST_ELEMENT_FACTORY(l->data);
        const gchar *klass = gst_element_factory_get_metadata(f, GST_ELEMENT_METADATA_KLASS);
        if (!reel_klass_has(klass, "Decoder") || !reel_klass_has(klass, "Video")) continue;
        g_ptr_array_add(names, g_strdup(gst_plugin_feature_get_name(GST_PLUGIN_FEATURE(f))));
        g_ptr_array_add(kl, g_strdup(klass));
    }
    gst_plugin_feature_list_free(list);
    g_ptr_array_add(names, NULL);
    g_ptr_array_add(kl, NULL);
    *klasses = (gchar **)g_ptr_array_free(kl, FALSE);
    return (gchar **)g_ptr_array_free(names, FALSE);
}
// A factory's rank, -1 when there is no such factory.
static inline gint reel_factory_rank(const gchar *name) {
    GstPluginFeature *f = gst_registry_find_feature(gst_registry_get(), name, GST_TYPE_ELEMENT_FACTORY);
    if (!f) return -1;
    gint rank = (gint)gst_plugin_feature_get_rank(f);
    gst_object_unref(f);
    return rank;
}
static inline void reel_set_factory_rank(const gchar *name, guint rank) {
    GstPluginFeature *f = gst_registry_find_feature(gst_registry_get(), name, GST_TYPE_ELEMENT_FACTORY);
    if (!f) return;
    gst_plugin_feature_set_rank(f, rank);
    gst_object_unref(f);
}
// Whether an element of the factory can be made and opens (NULL to READY: a hardware decoder
// opens its device there), then is let go.
static inline gboolean reel_factory_opens(const gchar *name) {
    GstElement *e = gst_element_factory_make(name, NULL);
    if (!e) return FALSE;
    gst_object_ref_sink(e);
    GstStateChangeReturn r = gst_element_set_state(e, GST_STATE_READY);
    gst_element_set_state(e, GST_STATE_NULL);
    gst_object_unref(e);
    return r != GST_STATE_CHANGE_FAILURE;
}
// The factory name of a message's source when it is a hardware video decoder, else NULL (not freed).
static inline const gchar *reel_message_src_hardware_decoder(GstMessage *m) {
    GstObject *src = GST_MESSAGE_SRC(m);
    if (!src || !GST_IS_ELEMENT(src)) return NULL;
    GstElementFactory *f = gst_element_get_factory(GST_ELEMENT(src));
    if (!f || !reel_klass_is_hardware_video_decoder(gst_element_factory_get_metadata(f, GST_ELEMENT_METADATA_KLASS))) return NULL;
    return gst_plugin_feature_get_name(GST_PLUGIN_FEATURE(f));
}
// The decoders playing inside a bin: the factory names of its video and audio decoders (one
// whose source pad is linked first; g_free both), and whether the video one is on hardware.
static inline void reel_bin_decoders(GstElement *bin, gchar **video, gchar **audio, gboolean *hardware) {
    *video = NULL; *audio = NULL; *hardware = FALSE;
    if (!GST_IS_BIN(bin)) return;
    gboolean videoLinked = FALSE, audioLinked = FALSE;
    GstIterator *it = gst_bin_iterate_recurse(GST_BIN(bin));
    GValue item = G_VALUE_INIT;
    gboolean done = FALSE;
    while (!done) {
        switch (gst_iterator_next(it, &item)) {
        case GST_ITERATOR_OK: {
            GstElement *e = GST_ELEMENT(g_value_get_object(&item));
            GstElementFactory *f = gst_element_get_factory(e);
            const gchar *klass = f ? gst_element_factory_get_metadata(f, GST_ELEMENT_METADATA_KLASS) : NULL;
            if (reel_klass_has(klass, "Decoder")) {
                GstPad *src = gst_element_get_static_pad(e, "src");
                gboolean linked = src && gst_pad_is_linked(src);
                if (src) gst_object_unref(src);
                const gchar *name = gst_plugin_feature_get_name(GST_PLUGIN_FEATURE(f));
                if (reel_klass_has(klass, "Video") && (!*video || (linked && !videoLinked))) {
                    g_free(*video); *video = g_strdup(name); videoLinked = linked;
                    *hardware = reel_klass_has(klass, "Hardware");
                } else if (reel_klass_has(klass, "Audio") && (!*audio || (linked && !audioLinked))) {
                    g_free(*audio); *audio = g_strdup(name); audioLinked = linked;
                }
            }
            g_value_reset(&item);
            break;
        }
        case GST_ITERATOR_RESYNC: gst_iterator_resync(it); break;
        default: done = TRUE; break;
        }
    }
    g_value_unset(&item);
    gst_iterator_free(it);
}

// The totals of frames a video sink rendered and dropped (basesink's `stats`), looking inside a
// sink bin for the element that has them; FALSE when none does.
static inline gboolean reel_video_sink_stats(GstElement *sink, guint64 *rendered, guint64 *dropped) {
    *rendered = 0; *dropped = 0;
    if (!sink) return FALSE;
    if (g_object_class_find_property(G_OBJECT_GET_CLASS(sink), "stats") != NULL) {
        GstStructure *s = NULL;
        g_object_get(G_OBJECT(sink), "stats", &s, NULL);
        if (!s) return FALSE;
        gboolean ok = gst_structure_get_uint64(s, "rendered", rendered) && gst_structure_get_uint64(s, "dropped", dropped);
        gst_structure_free(s);
        return ok;
    }
    if (!GST_IS_BIN(sink)) return FALSE;
    gboolean found = FALSE;
    GstIterator *it = gst_bin_iterate_sinks(GST_BIN(sink));
    GValue item = G_VALUE_INIT;
    while (!found && gst_iterator_next(it, &item) == GST_ITERATOR_OK) {
        found = reel_video_sink_stats(GST_ELEMENT(g_value_get_object(&item)), rendered, dropped);
        g_value_reset(&item);
    }
    g_value_unset(&item);
    gst_iterator_free(it);
    return found;
}

// A QOS message's frames (processed, dropped) when an element upstream of the sinks posted it
// for video (a video decoder or filter skipping late frames, GstVideoDecoder's QoS): the
// video sink's own drops are read from its `stats`, and audio is not counted.
static inline gboolean reel_qos_upstream_video_frames(GstMessage *message, guint64 *processed, guint64 *dropped) {
    *processed = 0; *dropped = 0;
    GstObject *src = GST_MESSAGE_SRC(message);
    if (GST_MESSAGE_TYPE(message) != GST_MESSAGE_QOS || !src || !GST_IS_ELEMENT(src)) return FALSE;
    if (GST_OBJECT_FLAG_IS_SET(src, GST_ELEMENT_FLAG_SINK) || GST_IS_BASE_SINK(src)) return FALSE;
    const gchar *klass = gst_element_class_get_metadata(GST_ELEMENT_GET_CLASS(src), GST_ELEMENT_METADATA_KLASS);
    if (!reel_klass_has(klass, "Video")) return FALSE;
    GstFormat format = GST_FORMAT_UNDEFINED;
    gst_message_parse_qos_stats(message, &format, processed, dropped);
    return format == GST_FORMAT_BUFFERS;
}

// Sets basesink's `sync` on a sink, or on every sink inside a sink bin: a checked item's sinks
// run as fast as the CPU allows, and to the clock while a scenario plays (`reel check --scenario`).
// With `qos`, the sink also judges lateness as a display sink does (QoS events upstream, so that
// decoders skip late frames, and `max-lateness` 20 ms); without, it never drops a late frame (-1).
static inline void reel_set_sinks_sync(GstElement *sink, gboolean sync, gboolean qos) {
    if (!sink) return;
    if (GST_IS_BASE_SINK(sink)) {
        g_object_set(G_OBJECT(sink), "sync", sync, "max-lateness", (gint64)(qos ? 20 * GST_MSECOND : -1), NULL);
        if (qos) g_object_set(G_OBJECT(sink), "qos", TRUE, NULL);
        return;
    }
    if (!GST_IS_BIN(sink)) return;
    GstIterator *it = gst_bin_iterate_sinks(GST_BIN(sink));
    GValue item = G_VALUE_INIT;
    while (gst_iterator_next(it, &item) == GST_ITERATOR_OK) {
        reel_set_sinks_sync(GST_ELEMENT(g_value_get_object(&item)), sync, qos);
        g_value_reset(&item);
    }
    g_value_unset(&item);
    gst_iterator_free(it);
}

#endif