/// GStreamer 1.22 workaround, the decision part: packed audio segments without their timestamp.
///
/// RFC 8216 §3.4 asks every packed audio segment (AAC in ADTS, MP3, AC-3: `.aac`, `.mp3`) to
/// begin with an ID3 PRIV frame `com.apple.streaming.transportStreamTimestamp` giving its first
/// sample's time. hlsdemux2 1.22 (`gst_hls_demux_typefind_stream`) takes packed audio only so;
/// bare ADTS or MP3 frames are "Unsupported stream type" and the item failed as "The file is
/// damaged". Such playlists are common where audio is cut by a generic segmenter (ffmpeg's
/// `segment` muxer, radio servers), and mpv and VLC play them. The gateway gives each bare
/// segment the tag the spec asks for, with the segment's start on its playlist's timeline
/// (`HLSSegmentClock`).
public enum PackedAudioTimestamp {
    /// The first bytes of a segment are an MPEG audio frame (ADTS AAC, MP1/2/3: the 11-bit frame
    /// sync) or an AC-3/E-AC-3 sync word, with no ID3 tag before them.
    public static func isBarePackedAudio<C: Collection>(_ prefix: C) -> Bool where C.Element == UInt8 {
        let bytes = Array(prefix.prefix(3))
        guard bytes.count >= 2 else { return false }
        if bytes.count == 3, bytes == Array("ID3".utf8) { return false }
        if bytes[0] == 0xFF, bytes[1] & 0xE0 == 0xE0 { return true }  // MPEG audio / ADTS frame sync
        return bytes[0] == 0x0B && bytes[1] == 0x77  // AC-3 / E-AC-3 sync word
    }

    /// The ID3v2.4 tag with the PRIV timestamp: `start` seconds on the 90 kHz clock, 33 bits
    /// (as MPEG-TS timestamps wrap).
    public static func tag(start seconds: Double) -> [UInt8] {
        let ticks = UInt64(max(0, (seconds * 90_000).rounded())) & ((1 << 33) - 1)
        let owner = Array("com.apple.streaming.transportStreamTimestamp".utf8) + [0]
        let payload = owner + (0..<8).reversed().map { UInt8(truncatingIfNeeded: ticks >> (UInt64($0) * 8)) }
        let frame = Array("PRIV".utf8) + syncsafe(payload.count) + [0, 0] + payload
        return Array("ID3".utf8) + [4, 0, 0] + syncsafe(frame.count) + frame
    }

    /// ID3v2.4's 28-bit size, seven bits a byte.
    static func syncsafe(_ n: Int) -> [UInt8] {
        [UInt8((n >> 21) & 0x7F), UInt8((n >> 14) & 0x7F), UInt8((n >> 7) & 0x7F), UInt8(n & 0x7F)]
    }
}

/// Where each segment of a media playlist starts on the playlist's timeline, in seconds: the
/// first segment seen at 0, each next one where the previous ended. A live playlist's refresh
/// keeps the times of the segments already known (by media sequence number) and puts the new ones
/// after them; one that shares no segment with the last continues from where that one ended.
public struct HLSSegmentClock: Sendable, Equatable {
    private var starts: [Int: Double] = [:]
    private var end: Double?

    public init() {}

    /// Reads a (refreshed) playlist: each of its segments' URI and start.
    public mutating func update(_ playlist: HLSMediaPlaylist) -> [(uri: String, start: Double)] {
        let segments = playlist.segments
        guard let first = segments.first else { return [] }
        var t: Double
        if let i = segments.firstIndex(where: { starts[$0.sequence] != nil }) {
            t = starts[segments[i].sequence]! - segments[..<i].reduce(0) { $0 + $1.duration }
        } else {
            t = end ?? 0
        }
        var timed: [(uri: String, start: Double)] = []
        timed.reserveCapacity(segments.count)
        for segment in segments {
            if let known = starts[segment.sequence] { t = known }
            starts[segment.sequence] = t
            timed.append((segment.uri, t))
            t += segment.duration
        }
        end = t
        // A live playlist slides on: what it left long ago is forgotten.
        if starts.count > segments.count + 256 { starts = starts.filter { $0.key >= first.sequence - 256 } }
        return timed
    }
}
