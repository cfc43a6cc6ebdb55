// videobox (plugins-good 1.22) as Reel's video filter uses it for the user's zoom and pan.
#ifndef REEL_VIDEO_BOX_H
#define REEL_VIDEO_BOX_H

// Makes a `videobox` (a GstElement*) take its box only in its streaming thread, between frames.
// 1.22's videobox applies `left`/`right`/`top`/`bottom` at once when set from another thread:
// the frame being transformed then has the old negotiated size and the new box, and videobox
// writes outside it (heap corruption; `add video-zoom` in a loop over the socket crashed Reel
// in a streaming thread a few seconds later). A probe on its sink pad sets the newest box asked
// for before the next buffer enters, so the element renegotiates before it transforms.
void reel_video_box_follow_requests(void *videobox);

// Asks for a box (pixels: positive crops, negative adds a border); taken at the next frame.
// Without `reel_video_box_follow_requests` the properties are set at once.
void reel_video_box_request(void *videobox, int left, int right, int top, int bottom);

// Keeps the box's output in its input's format: `capsfilter` (right after the box) is given
// each new input format before videobox negotiates. Given the choice, 1.22's videobox outputs
// AYUV for I420 input and converts every frame, a box of zero included (+1 s of CPU per 10 s
// of 1080p, measured); in the same format with no box it is passthrough. Transfer none.
void reel_video_box_keep_format(void *videobox, void *capsfilter);

#endif
