// Seek-bar previews: a second, small pipeline that decodes the frame of a URI at a time.
#ifndef REEL_SEEK_PREVIEW_H
#define REEL_SEEK_PREVIEW_H
#include <stdint.h>
#include <stddef.h>

typedef struct ReelSeekPreview ReelSeekPreview;

/// A paused `uridecodebin uri ! videoconvert ! videoscale ! RGB width×? ! fakesink` (video only,
/// square pixels, `width` wide). NULL, with `*error_message` (free with reel_frame_free), when it
/// does not preroll within `timeout_ns` (no video, unreadable).
ReelSeekPreview *reel_seek_preview_new(const char *uri, int width, uint64_t timeout_ns, char **error_message);
/// The frame at the keyframe at or before `position_ns`: RGB bytes (free with reel_frame_free),
/// its size and stride, its time. NULL when the seek does not land within `timeout_ns`.
uint8_t *reel_seek_preview_frame(ReelSeekPreview *preview, uint64_t position_ns, uint64_t timeout_ns,
                                 int *width, int *height, int *stride, uint64_t *pts_ns);
/// The stream's duration, or 0 when unknown.
uint64_t reel_seek_preview_duration(ReelSeekPreview *preview);
void reel_seek_preview_free(ReelSeekPreview *preview);
#endif
