// Workaround: no flushing seek right after a select-streams (GStreamer 1.22, playbin3).
//
// Seen (ExternalSubtitleTests, one full `make test` run in about twenty, the whole suite then
// hung): choosing a subtitle file while an item plays its own text stream sends select-streams
// (the text stream off), and the paused frame was then drawn again at once with a flushing seek
// from the main thread. The seek's flush waited in `gst_pad_pause_task` for a stream lock held by
// a multiqueue thread, which waited in a playsink pad probe for playsink's lock, held while
// playsink reconfigured for the new selection: a deadlock, every thread asleep.
//
// So when the `Tracks` feature sends select-streams (`apply`), the redraw waits for playbin3's
// STREAMS_SELECTED (`ItemStreams.redrawAfterSelection`, done in its `streamsSelected` hook); the overlay's
// new text is set at once and drawn with that redraw (or the next frame when playing).
enum SelectThenSeek {}
