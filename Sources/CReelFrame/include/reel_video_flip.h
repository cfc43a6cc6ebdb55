// videoflip (plugins-good 1.22) as Reel's video filter uses it, to turn pictures stored turned.
#ifndef REEL_VIDEO_FLIP_H
#define REEL_VIDEO_FLIP_H

// Puts a `videoflip video-direction=auto` (a GstElement*) in passthrough. 1.22's videoflip sets
// passthrough only when its method *changes*: created on auto with no orientation tag it stays
// on identity without ever being set to passthrough, so it copied every frame into a pool of its
// own (measured: +12 MB peak RSS on a 1080p file, gst-launch-1.0 playbin3 video-filter=videoflip
// against identity). A tag that turns the picture still leaves passthrough (the method changes).
void reel_video_flip_start_passthrough(void *videoflip);

#endif
