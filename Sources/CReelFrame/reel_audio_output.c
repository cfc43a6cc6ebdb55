#include "reel_audio_output.h"
#include <gst/gst.h>
#include <stdlib.h>
#include <string.h>

int reel_audio_sinks(char **names, char **descriptions, int capacity, int *default_index) {
    *default_index = -1;
    GstDeviceMonitor *monitor = gst_device_monitor_new();
    gst_device_monitor_add_filter(monitor, "Audio/Sink", NULL);
    if (!gst_device_monitor_start(monitor)) {
        gst_object_unref(monitor);
        return 0;
    }
    GList *devices = gst_device_monitor_get_devices(monitor);
    int count = 0;
    for (GList *l = devices; l && count < capacity; l = l->next) {
        GstDevice *device = l->data;
        // PulseAudio's devices (GstPulseDevice) name their sink in `internal-name`.
        if (!g_object_class_find_property(G_OBJECT_GET_CLASS(device), "internal-name")) continue;
        gchar *name = NULL;
        g_object_get(device, "internal-name", &name, NULL);
        if (!name || !*name) { g_free(name); continue; }
        gchar *description = gst_device_get_display_name(device);
        GstStructure *props = gst_device_get_properties(device);
        gboolean is_default = FALSE;
        if (props && gst_structure_get_boolean(props, "is-default", &is_default) && is_default) *default_index = count;
        if (props) gst_structure_free(props);
        names[count] = strdup(name);
        descriptions[count] = strdup(description ? description : name);
        g_free(name);
        g_free(description);
        count++;
    }
    g_list_free_full(devices, gst_object_unref);
    gst_device_monitor_stop(monitor);
    gst_object_unref(monitor);
    return count;
}

typedef struct { const char *device; int set; } DeviceChange;

static void set_device(const GValue *item, gpointer data) {
    DeviceChange *change = data;
    g_object_set(g_value_get_object(item), "device", change->device, NULL);
    change->set++;
}

int reel_audio_set_device(void *bin, const char *device) {
    if (!bin || !GST_IS_BIN(bin)) return 0;
    DeviceChange change = { device, 0 };
    // Every pulsesink inside it, child bins (autoaudiosink's) included.
    GstIterator *it = gst_bin_iterate_all_by_element_factory_name(GST_BIN(bin), "pulsesink");
    while (gst_iterator_foreach(it, set_device, &change) == GST_ITERATOR_RESYNC) {
        gst_iterator_resync(it);
        change.set = 0;
    }
    gst_iterator_free(it);
    return change.set;
}

void reel_audio_free(char *text) { free(text); }

char *reel_audio_current_device(void *bin) {
    if (!bin || !GST_IS_BIN(bin)) return NULL;
    GstIterator *it = gst_bin_iterate_all_by_element_factory_name(GST_BIN(bin), "pulsesink");
    GValue item = G_VALUE_INIT;
    char *out = NULL;
    if (gst_iterator_next(it, &item) == GST_ITERATOR_OK) {
        gchar *current = NULL;
        g_object_get(g_value_get_object(&item), "current-device", &current, NULL);
        if (current && *current) out = strdup(current);
        g_free(current);
        g_value_unset(&item);
    }
    gst_iterator_free(it);
    return out;
}
