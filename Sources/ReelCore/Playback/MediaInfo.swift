/// What is known about the current item's media.
public struct MediaInfo: Sendable, Equatable, Codable {
    public var width: Int?
    public var height: Int?
    public var videoCodec: String?
    public var audioCodec: String?
    public var title: String?
    public var isLive: Bool
    public var isSeekable: Bool
    /// The element factories decoding the video and the audio ("avdec_h264", "vah264dec"), once
    /// the pipeline has them.
    public var videoDecoder: String?
    public var audioDecoder: String?
    /// Whether the video decoder is a hardware one (its klass says "Hardware"); nil without video.
    public var hardwareDecoding: Bool?

    public init(width: Int? = nil, height: Int? = nil, videoCodec: String? = nil, audioCodec: String? = nil,
                title: String? = nil, isLive: Bool = false, isSeekable: Bool = false) {
        self.width = width
        self.height = height
        self.videoCodec = videoCodec
        self.audioCodec = audioCodec
        self.title = title
        self.isLive = isLive
        self.isSeekable = isSeekable
    }
}
