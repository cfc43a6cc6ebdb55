import CGStreamer

/// Whether a GStreamer element can be used here: it is installed and reaches READY (a video sink
/// then has its display). For the app's choice of video sink, without it importing GStreamer.
public enum ElementProbe {
    public static func reachesReady(_ factory: String) -> Bool {
        GStreamerRuntime.ensureInitialised()
        guard let element = reel_make_element(factory, nil) else { return false }
        defer {
            gst_element_set_state(element, GST_STATE_NULL)
            gst_object_unref(element)
        }
        return gst_element_set_state(element, GST_STATE_READY) != GST_STATE_CHANGE_FAILURE
    }
}
