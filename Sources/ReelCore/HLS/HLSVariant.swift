/// A variant stream of a master playlist (`#EXT-X-STREAM-INF` + URI line) or an I-frame
/// playlist (`#EXT-X-I-FRAME-STREAM-INF:…,URI="…"`, with `isIFrameOnly`).
public struct HLSVariant: Sendable, Equatable, Hashable, Codable {
    public var uri: String
    public var bandwidth: Int?
    public var averageBandwidth: Int?
    public var resolution: HLSResolution?
    /// The `CODECS` list, split at commas (`["avc1.42e01e", "mp4a.40.2"]`).
    public var codecs: [String]
    public var frameRate: Double?
    public var audioGroup: String?
    public var videoGroup: String?
    public var subtitlesGroup: String?
    public var closedCaptionsGroup: String?
    public var isIFrameOnly: Bool

    public init(uri: String, bandwidth: Int? = nil, averageBandwidth: Int? = nil, resolution: HLSResolution? = nil, codecs: [String] = [],
                frameRate: Double? = nil, audioGroup: String? = nil, videoGroup: String? = nil, subtitlesGroup: String? = nil,
                closedCaptionsGroup: String? = nil, isIFrameOnly: Bool = false) {
        self.uri = uri; self.bandwidth = bandwidth; self.averageBandwidth = averageBandwidth; self.resolution = resolution; self.codecs = codecs
        self.frameRate = frameRate; self.audioGroup = audioGroup; self.videoGroup = videoGroup; self.subtitlesGroup = subtitlesGroup
        self.closedCaptionsGroup = closedCaptionsGroup; self.isIFrameOnly = isIFrameOnly
    }
}
