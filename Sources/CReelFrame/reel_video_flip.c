// See include/reel_video_flip.h.
#include "reel_video_flip.h"
#include <gst/gst.h>
#include <gst/base/gstbasetransform.h>
#include <gst/video/video.h>

// Sets the method when it differs (each change renegotiates the picture's size).
static void set_method(GstElement *flip, GstVideoOrientationMethod method) {
    GstVideoOrientationMethod current = GST_VIDEO_ORIENTATION_IDENTITY;
    g_object_get(flip, "video-direction", &current, NULL);
    if (current != method) g_object_set(flip, "video-direction", method, NULL);
}

// Streaming thread: the element is alive while a probe on its own pad runs.
static GstPadProbeReturn flip_probe(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    (void)data;
    GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
    GstElement *flip = GST_ELEMENT(gst_pad_get_parent(pad));
    if (flip == NULL || event == NULL) {
        if (flip) gst_object_unref(flip);
        return GST_PAD_PROBE_OK;
    }
    if (GST_EVENT_TYPE(event) == GST_EVENT_STREAM_START) {
        set_method(flip, GST_VIDEO_ORIENTATION_IDENTITY);  // a new stream is upright until its tag says otherwise
    } else if (GST_EVENT_TYPE(event) == GST_EVENT_TAG) {
        GstTagList *tags = NULL;
        GstVideoOrientationMethod method;
        gst_event_parse_tag(event, &tags);
        if (tags && gst_video_orientation_from_tag(tags, &method)) set_method(flip, method);
    }
    gst_object_unref(flip);
    return GST_PAD_PROBE_OK;
}

void reel_video_flip_follow_streams(void *videoflip) {
    if (videoflip == NULL || !GST_IS_BASE_TRANSFORM(videoflip)) return;
    GstElement *flip = GST_ELEMENT(videoflip);
    set_method(flip, GST_VIDEO_ORIENTATION_IDENTITY);
    gst_base_transform_set_passthrough(GST_BASE_TRANSFORM(flip), TRUE);
    GstPad *sink = gst_element_get_static_pad(flip, "sink");
    if (sink == NULL) return;
    gst_pad_add_probe(sink, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, flip_probe, NULL, NULL);
    gst_object_unref(sink);
}

void reel_video_flip_pass_untouched(void *videoflip) {
    if (videoflip == NULL || !GST_IS_BASE_TRANSFORM(videoflip)) return;
    GstVideoOrientationMethod current = GST_VIDEO_ORIENTATION_IDENTITY;
    g_object_get(videoflip, "video-direction", &current, NULL);
    if (current == GST_VIDEO_ORIENTATION_IDENTITY) gst_base_transform_set_passthrough(GST_BASE_TRANSFORM(videoflip), TRUE);
}
