// Which streams reached playbin3's playsink. playbin3 1.22 posts no STREAMS_SELECTED for the
// group a gapless switch goes to, and the STREAM_START sticky on playsink's inputs names only the
// newest stream there (with unsynchronised sinks, one input is already an item further than the
// other). A probe on each input records the id of every stream that starts there, and how far
// its buffers reach.
#ifndef REEL_STREAM_LOG_H
#define REEL_STREAM_LOG_H
#include <stdint.h>

// Watches the inputs of `playbin`'s playsink ("video_sink", "audio_sink", "text_sink"; playbin
// is a GstElement*): a probe on each that exists and is not watched yet, the stream already
// started on it recorded. Cheap to call again (inputs come and go with the streams).
void reel_stream_log_watch(void *playbin);

// 1 when the stream `id` started at one of the watched inputs (among the last 32 on each).
int reel_stream_log_saw(void *playbin, const char *id);

// How far the buffers of stream `id` that passed a watched input reach, in stream time (ns):
// where an item played to when it is switched from (its last data went into the sinks); -1
// when none was seen.
int64_t reel_stream_log_end(void *playbin, const char *id);
#endif
