// The frame on screen as PNG: C code that works on GStreamer's video frames (cropping the
// letterbox bars playbin's videoscale adds, converting to PNG), kept out of the shim headers.
// The playbin is passed untyped so that this module does not re-declare GStreamer's types.
#ifndef REEL_FRAME_H
#define REEL_FRAME_H
#include <stddef.h>
#include <stdint.h>

// Snapshot of the last rendered frame of `playbin` (a GstElement*) as PNG, encoded at
// width x height with square pixels (0 for either: the frame's own size in square pixels).
// Returns the bytes (free with reel_frame_free) and *size, or NULL with *error_message set
// (free with reel_frame_free) when the conversion failed, or NULL alone when there is no frame.
uint8_t *reel_frame_snapshot_png(void *playbin, int width, int height, size_t *size, char **error_message);

void reel_frame_free(void *bytes);

#endif
