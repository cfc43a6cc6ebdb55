// A typefinder for DASH MPDs that GStreamer 1.22's own misses. Its dash_mpd_type_find wants the
// closing '>' of the root start tag within the bytes it peeks: 512 when the length is unknown,
// as in playbin3's push-mode typefinding of an HTTP body (a live MPD from ffmpeg, whose root
// tag carries a dozen attributes over ~630 bytes, is typed application/xml and nothing plays,
// without an error). This one reads the first element's name only.
#ifndef REEL_MPD_TYPEFIND_H
#define REEL_MPD_TYPEFIND_H
#include <stddef.h>
#include <stdint.h>

// 1 when the first element of the XML text in data[0..<size] is MPD (with or without a
// namespace prefix), after an optional BOM, XML declaration, comments, processing instructions
// and a DOCTYPE; 0 otherwise (also when the text ends before the name does).
int reel_mpd_first_element(const uint8_t *data, size_t size);

// Registers the typefinder (application/dash+xml, rank above GStreamer's own) once; after gst_init.
void reel_mpd_typefind_register(void);

#endif
