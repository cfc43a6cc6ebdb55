// videoflip (plugins-good 1.22) as Reel's video filter uses it, to turn pictures stored turned.
#ifndef REEL_VIDEO_FLIP_H
#define REEL_VIDEO_FLIP_H

// Makes a `videoflip` (a GstElement*) turn each stream by that stream's own orientation tag, and
// starts it in passthrough. Two faults of 1.22's `video-direction=auto` are avoided:
// - it keeps the last orientation tag it saw across streams: after a gapless switch from a
//   phone's portrait video, the next (landscape) item was turned on its side too. A probe on its
//   sink pad sets the method itself: identity at each STREAM_START, the tag's method when a TAG
//   event names one (before the element sees either, in the streaming thread);
// - it sets passthrough only when its method *changes*: created with no tag it never entered
//   passthrough and copied every frame into a pool of its own (+12 MB peak RSS on a 1080p file).
void reel_video_flip_follow_streams(void *videoflip);

// Starts a `videoflip` left at identity (the user's rotation, `VideoTransform`) in passthrough:
// the second fault above copied every 1080p frame of every user who never turned a picture
// (0.5 ms a frame). Its later method changes set passthrough themselves.
void reel_video_flip_pass_untouched(void *videoflip);

#endif
