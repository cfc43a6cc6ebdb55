// See include/reel_video_flip.h.
#include "reel_video_flip.h"
#include <gst/gst.h>
#include <gst/base/gstbasetransform.h>

void reel_video_flip_start_passthrough(void *videoflip) {
    if (videoflip == NULL || !GST_IS_BASE_TRANSFORM(videoflip)) return;
    gst_base_transform_set_passthrough(GST_BASE_TRANSFORM(videoflip), TRUE);
}
