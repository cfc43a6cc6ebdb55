// What reaches a demuxer is told by its bytes, not by its name: a guard on a source's first
// buffer (a probe on its src pad, streaming thread) asks a classifier what the bytes are and,
// when the classifier refuses them, drops them and every buffer after, and posts an error from
// the source whose message is "reel-content-guard: N" (N the classifier's answer). A DASH MPD at
// `/manifest?format=mpd` or in a file named movie.mp4 then never reaches dashdemux2 (which 1.22
// cannot be trusted with: docs/THREAT-MODEL.md), and a web page never plays as SAMI subtitles.
#ifndef REEL_CONTENT_GUARD_H
#define REEL_CONTENT_GUARD_H
#include <stddef.h>
#include <stdint.h>

// The classifier: 0 lets the stream through; any other value refuses it. `location` is the
// source's location (a URL or a path; NULL when it has none). Called once per source, on the
// buffer at offset 0, with at most 4 KiB of it. Any thread.
typedef int (*ReelContentClassifier)(const uint8_t *data, size_t size, const char *location);

// Guards `source` (a GstElement with a static "src" pad: souphttpsrc, filesrc, …). Transfer none.
void reel_content_guard_attach(void *source, ReelContentClassifier classify);

// Guards every source a GstDiscoverer makes (its "source-setup" signal). Transfer none.
void reel_content_guard_discoverer(void *discoverer, ReelContentClassifier classify);

// The prefix of the error message the guard posts.
#define REEL_CONTENT_GUARD_PREFIX "reel-content-guard: "

#endif
