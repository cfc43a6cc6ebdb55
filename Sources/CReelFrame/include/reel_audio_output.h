// The sound's output device (mpv's `audio-device`): the PulseAudio sinks GStreamer's device
// monitor sees, and a running pipeline's pulsesink moved to another (pulsesink moves its stream
// when its `device` changes). Elements are passed untyped.
#ifndef REEL_AUDIO_OUTPUT_H
#define REEL_AUDIO_OUTPUT_H

// The audio sinks PulseAudio offers now: for each, its internal name (what pulsesink's `device`
// takes) and its description, in `names` and `descriptions` (arrays of at most `capacity`
// strings, each freed with reel_audio_free), and in *default_index the server's default one
// (-1: not said). Returns how many (0 without PulseAudio).
int reel_audio_sinks(char **names, char **descriptions, int capacity, int *default_index);

// Sets `device` (NULL: the server's default) on every pulsesink inside `bin` (a GstElement*, a
// GstBin: the pipeline). Returns how many were set.
int reel_audio_set_device(void *bin, const char *device);

void reel_audio_free(char *text);

// The PulseAudio sink the first pulsesink inside `bin` plays to now (its "current-device": a
// round trip to the server), or NULL (none, or not playing). Free with reel_audio_free.
char *reel_audio_current_device(void *bin);

#endif
