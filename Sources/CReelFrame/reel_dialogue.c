#include "reel_dialogue.h"
#include <gst/gst.h>

typedef struct {
    double centre, surround;
    // The layout the matrix was last set for (channels << 32 ^ mask; 0: audioconvert's own mix).
    guint64 layout;
} Boost;

// GStreamer's channel positions (GstAudioChannelPosition), the bit of each in a channel mask.
enum { FL = 0, FR = 1, FC = 2, LFE1 = 3, RL = 4, RR = 5, FLC = 6, FRC = 7, RC = 8, LFE2 = 9, SL = 10, SR = 11 };

static double weight(int position, int side, const Boost *b) {
    switch (position) {
    case FL: case FLC: return side == 0 ? 1.0 : 0.0;
    case FR: case FRC: return side == 1 ? 1.0 : 0.0;
    case FC: return b->centre;
    case RL: case SL: return side == 0 ? b->surround : 0.0;
    case RR: case SR: return side == 1 ? b->surround : 0.0;
    case RC: return b->surround / 2;
    default: return 0.0;  // the LFE and the rest
    }
}

static void append_float(GValue *array, double v) {
    GValue value = G_VALUE_INIT;
    g_value_init(&value, G_TYPE_FLOAT);
    g_value_set_float(&value, (float)v);
    gst_value_array_append_value(array, &value);
    g_value_unset(&value);
}

static GstPadProbeReturn on_event(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    Boost *b = data;
    GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
    if (GST_EVENT_TYPE(event) != GST_EVENT_CAPS) return GST_PAD_PROBE_OK;
    GstCaps *caps = NULL;
    gst_event_parse_caps(event, &caps);
    if (!caps || gst_caps_get_size(caps) < 1) return GST_PAD_PROBE_OK;
    GstStructure *s = gst_caps_get_structure(caps, 0);
    gint channels = 0;
    guint64 mask = 0;
    gst_structure_get_int(s, "channels", &channels);
    gboolean has_mask = gst_structure_get(s, "channel-mask", GST_TYPE_BITMASK, &mask, NULL);
    gboolean surround = has_mask && channels >= 3 && channels <= 32 && (mask & (1ULL << FC)) && __builtin_popcountll(mask) == channels;
    guint64 layout = surround ? (((guint64)channels << 32) ^ mask) : 0;
    if (layout == b->layout) return GST_PAD_PROBE_OK;
    b->layout = layout;
    GstElement *convert = gst_pad_get_parent_element(pad);
    if (!convert) return GST_PAD_PROBE_OK;
    GValue matrix = G_VALUE_INIT;
    g_value_init(&matrix, GST_TYPE_ARRAY);
    if (surround) {
        // Channels come in the order of their positions' bits.
        int positions[32], n = 0;
        for (int bit = 0; bit < 64 && n < channels; bit++) if (mask & (1ULL << bit)) positions[n++] = bit;
        for (int side = 0; side < 2; side++) {
            GValue row = G_VALUE_INIT;
            g_value_init(&row, GST_TYPE_ARRAY);
            double sum = 0;
            for (int i = 0; i < n; i++) sum += weight(positions[i], side, b);
            for (int i = 0; i < n; i++) append_float(&row, sum > 0 ? weight(positions[i], side, b) / sum : 0);
            gst_value_array_append_value(&matrix, &row);
            g_value_unset(&row);
        }
    }
    GST_INFO_OBJECT(convert, "dialogue boost: %s for %d channels", surround ? "centre raised" : "audioconvert's own mix", channels);
    g_object_set_property(G_OBJECT(convert), "mix-matrix", &matrix);
    g_value_unset(&matrix);
    gst_object_unref(convert);
    return GST_PAD_PROBE_OK;
}

void reel_dialogue_boost_attach(void *audioconvert, double centre, double surround) {
    GstPad *sink = gst_element_get_static_pad(GST_ELEMENT(audioconvert), "sink");
    if (!sink) return;
    Boost *b = g_new0(Boost, 1);
    b->centre = centre;
    b->surround = surround;
    gst_pad_add_probe(sink, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, on_event, b, g_free);
    gst_object_unref(sink);
}
