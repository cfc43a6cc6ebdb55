#include "reel_elements.h"
#include <gst/gst.h>

static gboolean made_by(GstElement *e, const char *factory) {
    GstElementFactory *f = gst_element_get_factory(e);
    return f != NULL && g_strcmp0(GST_OBJECT_NAME(f), factory) == 0;
}

int reel_element_has_factory(void *element, const char *factory) {
    GstElement *e = GST_ELEMENT(element);
    if (made_by(e, factory)) return 1;
    if (!GST_IS_BIN(e)) return 0;
    gboolean found = FALSE, done = FALSE;
    GstIterator *it = gst_bin_iterate_recurse(GST_BIN(e));
    GValue item = G_VALUE_INIT;
    while (!done && !found) {
        switch (gst_iterator_next(it, &item)) {
        case GST_ITERATOR_OK:
            found = made_by(GST_ELEMENT(g_value_get_object(&item)), factory);
            g_value_reset(&item);
            break;
        case GST_ITERATOR_RESYNC: gst_iterator_resync(it); break;
        default: done = TRUE; break;
        }
    }
    g_value_unset(&item);
    gst_iterator_free(it);
    return found;
}
