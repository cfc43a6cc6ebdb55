// GStreamer 1.22 workaround: one stream of a gapless next item waiting for itself to end.
//
// uridecodebin3 blocks the pads of the next item (a probe on each urisourcebin pad) until the
// current one has drained; the first stream whose buffer finds it drained switches the input and
// removes the other streams' probes. A second stream whose buffer is already *inside* that probe
// then (a thread of its own, an audio+video item) finds the new item as the input, not drained,
// and waits for it to drain — which it cannot, since this stream is held: the item stalls, and
// the next flushing seek deadlocks on that stream's lock (gdb + uridecodebin3 log: "We can switch
// over" on src_0, then "Waiting for input source to be drained" on src_1, 2 ms later).
//
// The guard lets one stream of an urisourcebin at a time into uridecodebin3's probe: a stream
// whose pad is still blocked waits (before the probe, on its own pad's target) while another of
// the same urisourcebin is inside it, and goes on when its own block is lifted (the switch) or
// when the other has left (blocked idle, or passed). A flush drops the held buffer; after 10 s it
// goes on as without the guard. Pads that are not blocked (the current item's) pass at once, and
// the guard's probe is removed from them after the first buffer.
#ifndef REEL_GAPLESS_GUARD_H
#define REEL_GAPLESS_GUARD_H

// The guard also watches each urisourcebin's pads for EOS (as uridecodebin3 does: EOS marks a
// pad drained, a SEGMENT un-marks it): once every pad of one has seen EOS, the input of that item
// has drained and uridecodebin3 switches to the next item the moment one is there. A flushing
// seek then is unsafe in 1.22: it went to the next item's source, or deadlocked against the
// switch (its streaming thread setting the old urisourcebin to NULL while the old item's threads,
// restarted by the seek, waited for uridecodebin3's lock). `ReelGaplessWatch` says so, per pipeline.
typedef struct ReelGaplessWatch ReelGaplessWatch;

// A watch (one per playbin3); free with reel_gapless_watch_unref.
ReelGaplessWatch *reel_gapless_watch_new(void);
void reel_gapless_watch_unref(ReelGaplessWatch *watch);

// Whether an urisourcebin of this pipeline drained since the last reset (one removed while
// drained counts until then). Any thread.
int reel_gapless_watch_drained(ReelGaplessWatch *watch);

// Forgets drained urisourcebins that are gone (call when a switch reached the sinks).
void reel_gapless_watch_reset(ReelGaplessWatch *watch);

// Guards `element` when it is an urisourcebin (called from playbin3's element-setup, after
// uridecodebin3 connected its own pad-added handler); any other element is left alone.
// Transfer none; any thread.
void reel_gapless_guard_attach(void *element, ReelGaplessWatch *watch);

// How many times a stream was held back by a guard in this process (for tests and logs).
unsigned reel_gapless_guard_holds(void);

#endif
