/// A media playlist: segments, keys, maps, and low-latency parts and hints.
public struct HLSMediaPlaylist: Sendable, Equatable, Codable {
    /// `#EXT-X-PLAYLIST-TYPE`.
    public enum PlaylistType: String, Sendable, Codable { case vod = "VOD", event = "EVENT" }

    public var version: Int?
    public var targetDuration: Double
    public var mediaSequence: Int
    public var discontinuitySequence: Int
    public var playlistType: PlaylistType?
    /// `#EXT-X-ENDLIST` is present: the playlist will not change (VOD or a finished event).
    public var hasEndList: Bool
    public var isIFramesOnly: Bool
    public var partTargetDuration: Double?
    public var segments: [HLSSegment]
    /// Parts after the last complete segment (the live edge of a low-latency playlist).
    public var trailingParts: [HLSPart]
    public var preloadHints: [HLSPreloadHint]

    public init(version: Int? = nil, targetDuration: Double = 0, mediaSequence: Int = 0, discontinuitySequence: Int = 0,
                playlistType: PlaylistType? = nil, hasEndList: Bool = false, isIFramesOnly: Bool = false, partTargetDuration: Double? = nil,
                segments: [HLSSegment] = [], trailingParts: [HLSPart] = [], preloadHints: [HLSPreloadHint] = []) {
        self.version = version
        self.targetDuration = targetDuration
        self.mediaSequence = mediaSequence
        self.discontinuitySequence = discontinuitySequence
        self.playlistType = playlistType
        self.hasEndList = hasEndList
        self.isIFramesOnly = isIFramesOnly
        self.partTargetDuration = partTargetDuration
        self.segments = segments
        self.trailingParts = trailingParts
        self.preloadHints = preloadHints
    }

    /// Live: the playlist may still grow (no ENDLIST, and not declared VOD).
    public var isLive: Bool { !hasEndList && playlistType != .vod }

    /// The sum of the segment durations, in seconds.
    public var totalDuration: Double { segments.reduce(0) { $0 + $1.duration } }

    /// The distinct keys in order of first use.
    public var keys: [HLSKey] {
        var seen: [HLSKey] = []
        for key in segments.compactMap(\.key) where !seen.contains(key) { seen.append(key) }
        return seen
    }

    /// The distinct maps in order of first use.
    public var maps: [HLSMap] {
        var seen: [HLSMap] = []
        for map in segments.compactMap(\.map) where !seen.contains(map) { seen.append(map) }
        return seen
    }
}
