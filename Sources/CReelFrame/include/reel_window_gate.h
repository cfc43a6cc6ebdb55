// The window gate: a pipeline may preroll before the window it draws into exists. The video
// sink's first caps query (a streaming thread negotiating the first frame) waits here until the
// window's handle is known (`reel_window_gate_open`), is handed to the sink, and only then is
// answered, so the first frame is negotiated at the window's size (ximagesink's caps carry the
// size of the window it was given). The thread that made the gate (the main thread, which builds
// the window) never waits; `reel_window_gate_cancel` (or the bound) lets the query through with
// no handle (the sink then opens its own window, as it would without one). Streaming threads
// touch only the gate's own mutex. GStreamer objects are passed untyped (see reel_frame.h).
#ifndef REEL_WINDOW_GATE_H
#define REEL_WINDOW_GATE_H
#include <stdint.h>

typedef struct ReelWindowGate ReelWindowGate;

// A gate whose waits last at most `bound_ms`; owned by the caller (reel_window_gate_unref).
ReelWindowGate *reel_window_gate_new(unsigned bound_ms);
void reel_window_gate_unref(ReelWindowGate *gate);
// The handle is known: every waiting (and later) query hands it to its sink.
void reel_window_gate_open(ReelWindowGate *gate, uintptr_t handle);
// The same with the rectangle of the window the video goes in (Wayland: a subsurface there).
void reel_window_gate_open_rect(ReelWindowGate *gate, uintptr_t handle, int x, int y, int w, int h);
// No handle is coming: waiting queries go on without one.
void reel_window_gate_cancel(ReelWindowGate *gate);
// Puts the gate on `sink`'s (a GstElement*) "sink" pad (a ghost pad for a parsed bin); 0 when it has none.
int reel_window_gate_attach(ReelWindowGate *gate, void *sink);

#endif
