#include "reel_elements.h"
#include <gst/gst.h>

static gboolean made_by(GstElement *e, const char *factory) {
    GstElementFactory *f = gst_element_get_factory(e);
    return f != NULL && g_strcmp0(GST_OBJECT_NAME(f), factory) == 0;
}

// gst_iterator_find_custom's comparison: 0 for the element sought.
static gint other_than(gconstpointer item, gconstpointer factory) {
    return made_by(GST_ELEMENT(g_value_get_object((const GValue *)item)), factory) ? 0 : 1;
}

int reel_element_has_factory(void *element, const char *factory) {
    GstElement *e = GST_ELEMENT(element);
    if (made_by(e, factory)) return 1;
    if (!GST_IS_BIN(e)) return 0;
    GstIterator *it = gst_bin_iterate_recurse(GST_BIN(e));
    GValue found = G_VALUE_INIT;
    gboolean has = gst_iterator_find_custom(it, other_than, &found, (gpointer)factory);
    if (has) g_value_unset(&found);
    gst_iterator_free(it);
    return has;
}
