import CGStreamer
import ReelCore

/// Reel's GStreamer debug categories, one per log area (`reel-engine`, `reel-gateway`, …):
/// `GST_DEBUG=reel*:5` prints Reel's decisions (every bus message handled, hook called,
/// workaround decision, gateway repair) among GStreamer's own lines, with their times and
/// threads, as Clapper's `clapper*` categories do. `REEL_DEBUG` still writes them to stderr.
/// Attached once GStreamer is initialised (`GStreamerRuntime`); categories made after `gst_init`
/// take their thresholds from GST_DEBUG as they are registered.
enum GStreamerDebugLog {
    /// Called once, from `GStreamerRuntime.ensureInitialised`. The categories are made once
    /// and never freed (as GStreamer's own); they are kept by address (a Sendable value).
    static func attach() {
        var table: [Log.Area: UInt] = [:]
        for area in Log.Area.allCases {
            guard let category = _gst_debug_category_new("reel-\(area.rawValue)", 0, "Reel: \(area.rawValue) decisions") else { continue }
            table[area] = UInt(bitPattern: category)
        }
        let categories = table
        @Sendable func category(_ area: Log.Area) -> UnsafeMutablePointer<GstDebugCategory>? {
            categories[area].flatMap { UnsafeMutablePointer<GstDebugCategory>(bitPattern: $0) }
        }
        Log.attach(Log.Sink(isOn: { area, level in
            guard let c = category(area) else { return false }
            return gst_debug_category_get_threshold(c).rawValue >= gstLevel(level).rawValue
        }, write: { area, level, message in
            guard let c = category(area) else { return }
            gst_debug_log_literal(c, gstLevel(level), "reel", area.rawValue, 0, nil, message)
        }))
    }

    /// Reel's five levels on GStreamer's: info is GStreamer's INFO (4), debug DEBUG (5), trace TRACE (7).
    static func gstLevel(_ level: Log.Level) -> GstDebugLevel {
        switch level {
        case .error: GST_LEVEL_ERROR
        case .warning: GST_LEVEL_WARNING
        case .info: GST_LEVEL_INFO
        case .debug: GST_LEVEL_DEBUG
        case .trace: GST_LEVEL_TRACE
        }
    }
}
