/// GStreamer 1.22 workaround, the decision part: the bitrate window an adaptive demuxer is given,
/// on the demuxer's own scale.
///
/// Reel chooses renditions by what RFC 8216 says a variant needs (`BANDWIDTH`, the peak), but
/// hlsdemux2 1.22 compares its `connection-bitrate` / `min-bitrate` / `max-bitrate` with another
/// number: when a variant has `AVERAGE-BANDWIDTH`, that value *replaces* `BANDWIDTH` as the
/// variant's bandwidth (`hls/m3u8.c`, `gst_hls_master_playlist_new_from_data`: "AVERAGE-BANDWIDTH
/// attribute available. Using it as stream bandwidth"). A pin made of `BANDWIDTH` then matches no
/// variant: the demuxer picks the next one up (`hls_master_playlist_get_variant_for_bitrate`
/// falls back to the lowest variant at or above `min-bitrate`), so `--quality 360p` played 720p;
/// and when that floor is above every variant's average and the demuxer has no variant yet (the
/// start, with `connection-bitrate` set), it selects **none** and dereferences NULL on its
/// streaming thread (SIGSEGV: the second playback of a master with AVERAGE-BANDWIDTH, once a
/// remembered throughput started it at its top rendition).
///
/// So the window is translated here, in one place: a pinned rendition becomes its own demuxer
/// bandwidth (`AVERAGE-BANDWIDTH ?? BANDWIDTH`), exactly; a cap on Reel's scale becomes the highest
/// demuxer bandwidth among the renditions it allows (the lowest when it allows none). The engine
/// (`HLSDemuxBitrateWindow`) never gives the demuxer a `min-bitrate` at all: with
/// `connection-bitrate` set, 1.22 takes it as the measured rate and picks the highest variant at or
/// below it (never NULL), so the floor only ever added the crash.
public enum DemuxerBitrateWindow {
    /// What hlsdemux2 1.22 (and dashdemux2: `@bandwidth`, the only value a Representation has)
    /// takes as a variant's bandwidth.
    public static func bandwidth(of variant: HLSVariant) -> Int? { variant.averageBandwidth ?? variant.bandwidth }

    /// The (floor, cap) to give the engine for `limits` over `renditions` (Reel's scale).
    public static func window(_ limits: RenditionSelector.Limits, renditions: [HLSVariant]) -> (floor: Int?, cap: Int?) {
        if let index = limits.pinned, renditions.indices.contains(index), let own = bandwidth(of: renditions[index]) {
            return (own, own)
        }
        guard let cap = limits.maxBitrate else { return (nil, nil) }
        let known = renditions.compactMap { v in v.bandwidth.flatMap { peak in bandwidth(of: v).map { (peak: peak, demuxer: $0) } } }
        guard !known.isEmpty else { return (nil, cap) }
        let allowed = known.filter { $0.peak <= cap }.map(\.demuxer).max()
        return (nil, allowed ?? known.map(\.demuxer).min())
    }
}
