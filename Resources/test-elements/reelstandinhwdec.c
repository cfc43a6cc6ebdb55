/*
 * A stand-in "hardware" H.264 decoder for Reel's tests (issue 33), built by the tests with cc
 * (Tests/ReelTestSupport/StandInHardwareDecoder.swift) and loaded as a GStreamer plugin: a
 * machine without a GPU has no hardware decoder, and the fallback to software must still be shown.
 *
 * reelstandinh264dec: klass "Codec/Decoder/Video/Hardware" (what Reel recognises a hardware
 * decoder by, as GStreamer's va, nvcodec and v4l2codecs decoders say of themselves), rank none
 * (as GStreamer 1.22 registers the VA decoders: playbin3 never picks it unless someone raises it).
 * It opens its "device" at NULL->READY unless REEL_STANDIN_HWDEC_NO_DEVICE is set (to anything
 * but "" or "0"), accepts
 * H.264, and fails on its first frame with a decode error (as a broken driver does).
 * Its frames-received count is in the environment-free global `reel_standin_frames` (for tests
 * that load it in process).
 */
#include <gst/gst.h>
#include <string.h>

typedef struct { GstElement parent; GstPad *sink, *src; } ReelStandIn;
typedef struct { GstElementClass parent_class; } ReelStandInClass;

G_DEFINE_TYPE(ReelStandIn, reel_standin, GST_TYPE_ELEMENT)

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE("sink", GST_PAD_SINK, GST_PAD_ALWAYS,
    GST_STATIC_CAPS("video/x-h264, stream-format=(string){ avc, byte-stream }, alignment=(string)au"));
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE("src", GST_PAD_SRC, GST_PAD_ALWAYS,
    GST_STATIC_CAPS("video/x-raw, format=(string)I420"));

volatile gint reel_standin_frames = 0;

static gboolean sink_event(GstPad *pad, GstObject *parent, GstEvent *event) {
    ReelStandIn *self = (ReelStandIn *)parent;
    if (GST_EVENT_TYPE(event) == GST_EVENT_CAPS) {
        /* Raw caps of the same size downstream, as a decoder would announce. */
        GstCaps *in = NULL;
        gst_event_parse_caps(event, &in);
        gint w = 320, h = 240, fn = 30, fd = 1;
        const GstStructure *s = gst_caps_get_structure(in, 0);
        gst_structure_get_int(s, "width", &w);
        gst_structure_get_int(s, "height", &h);
        gst_structure_get_fraction(s, "framerate", &fn, &fd);
        GstCaps *out = gst_caps_new_simple("video/x-raw", "format", G_TYPE_STRING, "I420", "width", G_TYPE_INT, w,
                                           "height", G_TYPE_INT, h, "framerate", GST_TYPE_FRACTION, fn, fd, NULL);
        gboolean ok = gst_pad_push_event(self->src, gst_event_new_caps(out));
        gst_caps_unref(out);
        gst_event_unref(event);
        return ok;
    }
    return gst_pad_event_default(pad, parent, event);
}

static GstFlowReturn sink_chain(GstPad *pad, GstObject *parent, GstBuffer *buffer) {
    (void)pad;
    gst_buffer_unref(buffer);
    g_atomic_int_inc(&reel_standin_frames);
    GST_ELEMENT_ERROR(parent, STREAM, DECODE, ("The stand-in hardware decoder failed on its first frame."),
                      ("reelstandinh264dec always fails (a test of the fallback to software decoding)"));
    return GST_FLOW_ERROR;
}

static GstStateChangeReturn change_state(GstElement *element, GstStateChange transition) {
    const gchar *no_device = g_getenv("REEL_STANDIN_HWDEC_NO_DEVICE");
    if (transition == GST_STATE_CHANGE_NULL_TO_READY && no_device && *no_device && strcmp(no_device, "0") != 0)
        return GST_STATE_CHANGE_FAILURE;  /* no device to open */
    return GST_ELEMENT_CLASS(reel_standin_parent_class)->change_state(element, transition);
}

static void reel_standin_class_init(ReelStandInClass *klass) {
    GstElementClass *element_class = GST_ELEMENT_CLASS(klass);
    gst_element_class_add_static_pad_template(element_class, &sink_template);
    gst_element_class_add_static_pad_template(element_class, &src_template);
    gst_element_class_set_static_metadata(element_class, "Reel stand-in hardware H.264 decoder", "Codec/Decoder/Video/Hardware",
                                          "Fails on its first frame (tests of the fallback to software decoding)", "Reel");
    element_class->change_state = change_state;
}

static void reel_standin_init(ReelStandIn *self) {
    self->sink = gst_pad_new_from_static_template(&sink_template, "sink");
    gst_pad_set_event_function(self->sink, sink_event);
    gst_pad_set_chain_function(self->sink, sink_chain);
    gst_element_add_pad(GST_ELEMENT(self), self->sink);
    self->src = gst_pad_new_from_static_template(&src_template, "src");
    gst_pad_use_fixed_caps(self->src);
    gst_element_add_pad(GST_ELEMENT(self), self->src);
}

static gboolean plugin_init(GstPlugin *plugin) {
    return gst_element_register(plugin, "reelstandinh264dec", GST_RANK_NONE, reel_standin_get_type());
}

#define PACKAGE "reel-tests"
GST_PLUGIN_DEFINE(GST_VERSION_MAJOR, GST_VERSION_MINOR, reelstandinhwdec, "Reel's stand-in hardware decoder (tests only)",
                  plugin_init, "1.0", "LGPL", "Reel", "https://example.invalid/reel")
