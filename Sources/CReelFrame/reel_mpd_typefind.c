#include "reel_mpd_typefind.h"
#include <gst/gst.h>
#include <string.h>

static int is_space(uint8_t c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
static int is_name(uint8_t c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.' || c >= 0x80;
}

// The index just after the first occurrence of needle in data[from..<size], or size + 1 when none.
static size_t after(const uint8_t *data, size_t size, size_t from, const char *needle) {
    size_t n = strlen(needle);
    for (size_t i = from; i + n <= size; i++) {
        if (memcmp(data + i, needle, n) == 0) return i + n;
    }
    return size + 1;
}

int reel_mpd_first_element(const uint8_t *data, size_t size) {
    if (data == NULL) return 0;
    size_t i = 0;
    if (size >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF) i = 3;  // UTF-8 BOM
    for (;;) {
        while (i < size && is_space(data[i])) i++;
        if (i >= size || data[i] != '<') return 0;  // text before the first element: not XML we know
        if (i + 1 >= size) return 0;
        uint8_t next = data[i + 1];
        if (next == '?') {  // the XML declaration, a processing instruction
            i = after(data, size, i + 2, "?>");
        } else if (next == '!') {
            if (i + 4 <= size && memcmp(data + i, "<!--", 4) == 0) {
                i = after(data, size, i + 4, "-->");
            } else {  // <!DOCTYPE …> (an internal subset's brackets are not followed)
                i = after(data, size, i + 2, ">");
            }
        } else {
            break;
        }
        if (i > size) return 0;
    }
    // The first element: [prefix:]MPD followed by a space, '>' or '/'.
    size_t start = i + 1, end = start;
    while (end < size && (is_name(data[end]) || data[end] == ':')) end++;
    if (end >= size) return 0;  // the name may go on past what we have
    if (!(is_space(data[end]) || data[end] == '>' || data[end] == '/')) return 0;
    size_t local = start;
    for (size_t k = start; k < end; k++) {
        if (data[k] == ':') local = k + 1;
    }
    return end - local == 3 && memcmp(data + local, "MPD", 3) == 0;
}

static void reel_mpd_type_find(GstTypeFind *tf, gpointer unused) {
    (void)unused;
    // As much as is there, up to 4 KiB (push mode: the length is often unknown).
    static const guint sizes[] = {4096, 2048, 1024, 512, 256, 128, 64};
    guint64 length = gst_type_find_get_length(tf);
    for (size_t k = 0; k < G_N_ELEMENTS(sizes); k++) {
        guint size = sizes[k];
        if (length > 0 && length < size) continue;
        const guint8 *data = gst_type_find_peek(tf, 0, size);
        if (data == NULL) continue;
        if (reel_mpd_first_element(data, size)) {
            GstCaps *caps = gst_caps_new_empty_simple("application/dash+xml");
            gst_type_find_suggest(tf, GST_TYPE_FIND_MAXIMUM, caps);
            gst_caps_unref(caps);
        }
        return;
    }
    if (length > 0 && length < 64) {
        const guint8 *data = gst_type_find_peek(tf, 0, (guint)length);
        if (data != NULL && reel_mpd_first_element(data, (size_t)length)) {
            GstCaps *caps = gst_caps_new_empty_simple("application/dash+xml");
            gst_type_find_suggest(tf, GST_TYPE_FIND_MAXIMUM, caps);
            gst_caps_unref(caps);
        }
    }
}

void reel_mpd_typefind_register(void) {
    static gsize once = 0;
    if (g_once_init_enter(&once)) {
        GstCaps *caps = gst_caps_new_empty_simple("application/dash+xml");
        gst_type_find_register(NULL, "reel-dash-mpd", GST_RANK_PRIMARY + 1, reel_mpd_type_find, "mpd,MPD", caps, NULL, NULL);
        gst_caps_unref(caps);
        g_once_init_leave(&once, 1);
    }
}
