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

// Exact frames during playback: watches the buffers reaching a video sink (`sink`, a GstElement*,
// through a probe on its sink pad, in the streaming thread) and catches, for each target time T
// (ns, ascending), the last frame whose PTS <= T: the one on screen at T, known once a later
// frame (or the end of the stream) arrives. NULL when the sink has no sink pad.
typedef struct ReelFrameCatcher ReelFrameCatcher;
ReelFrameCatcher *reel_frame_catcher_new(void *sink);
// The same on another pad of an element: the video filter's "src" (the picture as shown, before
// playsink scales it to a window).
ReelFrameCatcher *reel_frame_catcher_new_on(void *element, const char *pad_name);
// Replaces the targets (at most 64) and forgets what was caught; a new item starts from here.
void reel_frame_catcher_set_targets(ReelFrameCatcher *catcher, const uint64_t *targets_ns, size_t count);
// The next caught frame as PNG (encoded as reel_frame_snapshot_png encodes), with its target
// and its own PTS: *taken is 1 when a frame was taken (the bytes may still be NULL, with
// *error_message, when it could not be converted), 0 when none is waiting.
uint8_t *reel_frame_catcher_take_png(ReelFrameCatcher *catcher, int width, int height, uint64_t *target_ns, uint64_t *pts_ns,
                                     size_t *size, char **error_message, int *taken);
// Keeps copies of the last frames that passed (1), for reel_frame_catcher_frame_at_png.
void reel_frame_catcher_keep_last(ReelFrameCatcher *catcher, int keep);
// Of the frames kept, the one with the latest PTS at or before `pts_ns` (a buffer PTS: the one
// the sink shows), as PNG; *found_pts is its PTS. NULL when none is kept (or, with
// *error_message, when it could not be converted).
uint8_t *reel_frame_catcher_frame_at_png(ReelFrameCatcher *catcher, uint64_t pts_ns, int width, int height, uint64_t *found_pts, size_t *size, char **error_message);
// Removes the probe and frees what the catcher holds.
void reel_frame_catcher_free(ReelFrameCatcher *catcher);

// The frame on screen of `playbin` as width x height 8-bit luma (GRAY8, square pixels) into
// `out` (width * height bytes): 1 when done, 0 when there is no frame.
int reel_frame_snapshot_luma(void *playbin, uint8_t *out, int width, int height);

// The loudest sample reaching an audio sink (`sink`, a GstElement*; a probe on its sink pad):
// for reel check's silent-audio check. Formats F32LE, F64LE, S16LE, S32LE; others count nothing.
typedef struct ReelAudioMeter ReelAudioMeter;
ReelAudioMeter *reel_audio_meter_new(void *sink);
// The peak so far (0…1 of full scale) and how many samples were measured.
double reel_audio_meter_peak(ReelAudioMeter *meter, uint64_t *samples);
void reel_audio_meter_free(ReelAudioMeter *meter);

#endif
