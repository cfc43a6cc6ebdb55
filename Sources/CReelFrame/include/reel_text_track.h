// An embedded subtitle stream's text, as GStreamer decodes it for playbin3 to draw: C code that
// builds its own small pipeline (uridecodebin that stops at text, every other stream left
// undecoded into a fakesink), kept out of the shim headers.
#ifndef REEL_TEXT_TRACK_H
#define REEL_TEXT_TRACK_H
#include <stddef.h>
#include <stdint.h>

// One decoded text buffer: its PTS and duration in ns (UINT64_MAX when it has none), its bytes
// (UTF-8, not NUL-terminated) and whether they are Pango markup (1) or plain text (0).
typedef void (*ReelTextCueCallback)(void *user_data, uint64_t pts, uint64_t duration, const char *text, size_t size, int markup);

// Reads the `index`-th (0-based) text stream of `uri` to its end, calling `cue` (on a streaming
// thread) for each buffer. Returns the number of text streams the media has (≥ 0) when it ended,
// -1 with *error_message (free with reel_text_track_free) on an error, -2 when `timeout_ns` passed.
int reel_text_track_read(const char *uri, int index, uint64_t timeout_ns, ReelTextCueCallback cue, void *user_data,
                         char **error_message);

void reel_text_track_free(void *bytes);
#endif
