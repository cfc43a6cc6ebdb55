import CGStreamer
import ReelCore

/// Bounds the bitrate of adaptive streams (HLS, DASH) through the running adaptive demuxer, so a
/// metered connection (`NetworkRule`) keeps to the lowest rendition and a rendition the user
/// chose (`RenditionSelector`) is kept, without a reload: GStreamer 1.22's adaptivedemux2
/// re-decides the variant after each fragment from `connection-bitrate` (0: its own estimate;
/// the playlist's first variant at the start), so that is set to the window's floor (a pin) or
/// cap while bounded, and cleared after; which properties are set, and why `min-bitrate` is not,
/// is `HLSDemuxBitrateWindow`'s (a 1.22 crash). Values are on the demuxer's scale
/// (`DemuxerBitrateWindow` in the core).
enum BitrateCap {
    /// hlsdemux2 / dashdemux2 / mssdemux2: the adaptivedemux2 properties Reel sets.
    static func isAdaptiveDemuxer(_ element: UnsafeMutablePointer<GstElement>) -> Bool {
        reel_has_property(element, "max-bitrate") != 0 && reel_has_property(element, "connection-bitrate") != 0
            && reel_has_property(element, "current-level-time-video") != 0
    }

    /// A new adaptive demuxer (any thread): takes the current cap and becomes the one the cap is
    /// changed on (a reference is held until it is replaced or forgotten).
    static func adopt(_ demuxer: UnsafeMutablePointer<GstElement>, shared: StreamingShared) {
        gst_object_ref(demuxer)
        let (old, cap, floor, limit) = shared.state.withLock { s -> (UInt?, Int?, Int?, Double?) in
            let old = s.adaptiveDemuxer
            s.adaptiveDemuxer = UInt(bitPattern: demuxer)
            return (old, s.bitrateCap, s.bitrateFloor, s.bufferingLimit)
        }
        apply(cap, floor: floor, to: demuxer)
        applyBufferingLimit(limit, to: demuxer)
        DASHDemuxBufferingThreshold.apply(to: demuxer)
        if let old, let p = UnsafeMutablePointer<GstElement>(bitPattern: old) { gst_object_unref(p) }
    }

    /// Sets the window for the demuxer in use (if any) and for the ones to come.
    static func set(_ cap: Int?, floor: Int?, shared: StreamingShared) {
        let current = shared.state.withLock { s -> UnsafeMutablePointer<GstElement>? in
            s.bitrateCap = cap
            s.bitrateFloor = floor
            guard let bits = s.adaptiveDemuxer, let p = UnsafeMutablePointer<GstElement>(bitPattern: bits) else { return nil }
            gst_object_ref(p)
            return p
        }
        guard let current else { return }
        apply(cap, floor: floor, to: current)
        gst_object_unref(current)
    }

    /// Sets how much the demuxer in use (if any) and the ones to come buffer ahead at most.
    static func setBufferingLimit(_ limit: Double?, shared: StreamingShared) {
        let current = shared.state.withLock { s -> UnsafeMutablePointer<GstElement>? in
            s.bufferingLimit = limit
            guard let bits = s.adaptiveDemuxer, let p = UnsafeMutablePointer<GstElement>(bitPattern: bits) else { return nil }
            gst_object_ref(p)
            return p
        }
        guard let current else { return }
        applyBufferingLimit(limit, to: current)
        gst_object_unref(current)
    }

    /// adaptivedemux2's `max-buffering-time` (ns; its default 30 s when nil), read under the
    /// demuxer's object lock before every fragment (`calculate_track_thresholds` in 1.22: it
    /// caps the high watermark, above which downloads wait), so it is live-settable from any
    /// thread. A demuxer waiting at the old target wakes at it and then reads the new one.
    private static func applyBufferingLimit(_ limit: Double?, to demuxer: UnsafeMutablePointer<GstElement>) {
        guard reel_has_property(demuxer, "max-buffering-time") != 0 else { return }
        let seconds = limit.map { max(1, $0) } ?? 30
        reel_set_uint64(demuxer, "max-buffering-time", guint64(seconds * 1e9))
    }

    /// Whether the demuxer in use is dashdemux2 (the adaptive demuxer with a `presentation-delay`).
    static func isDASH(shared: StreamingShared) -> Bool {
        guard let current = current(shared) else { return false }
        defer { gst_object_unref(current) }
        return reel_has_property(current, "presentation-delay") != 0
    }

    /// The demuxer in use, with a reference the caller releases (nil: none).
    private static func current(_ shared: StreamingShared) -> UnsafeMutablePointer<GstElement>? {
        shared.state.withLock { s -> UnsafeMutablePointer<GstElement>? in
            guard let bits = s.adaptiveDemuxer, let p = UnsafeMutablePointer<GstElement>(bitPattern: bits) else { return nil }
            gst_object_ref(p)
            return p
        }
    }

    /// Lets go of the remembered demuxer (a new item, a new pipeline).
    static func forget(shared: StreamingShared) {
        let old = shared.state.withLock { s -> UInt? in
            defer { s.adaptiveDemuxer = nil }
            return s.adaptiveDemuxer
        }
        if let old, let p = UnsafeMutablePointer<GstElement>(bitPattern: old) { gst_object_unref(p) }
    }

    /// The demuxer's buffered level (video, else audio) and measured download rate.
    static func stats(shared: StreamingShared) -> (buffered: Double, throughput: Int?)? {
        guard let current = current(shared) else { return nil }
        defer { gst_object_unref(current) }
        // GST_CLOCK_TIME_NONE (all of a VOD downloaded, the streams at EOS) is no level: nothing
        // is left to decide (read as seconds it was 18446744073 s).
        let none = UInt64.max
        var level = reel_get_uint64(current, "current-level-time-video")
        if level == 0 || level == none { level = reel_get_uint64(current, "current-level-time-audio") }
        guard level != none else { return nil }
        let rate = reel_get_uint(current, "current-bandwidth")
        return (Double(level) / 1e9, rate > 0 ? Int(rate) : nil)
    }

    private static func apply(_ cap: Int?, floor: Int?, to demuxer: UnsafeMutablePointer<GstElement>) {
        HLSDemuxBitrateWindow.apply(cap: cap, floor: floor, to: demuxer)
    }
}
