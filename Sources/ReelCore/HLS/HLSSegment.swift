/// One media segment of a media playlist, with the key and map in force for it.
public struct HLSSegment: Sendable, Equatable, Hashable, Codable {
    public var uri: String
    /// `#EXTINF` duration in seconds.
    public var duration: Double
    /// `#EXTINF` title (after the comma), when there is one.
    public var title: String?
    /// Its media sequence number.
    public var sequence: Int
    public var byteRange: HLSByteRange?
    /// The key in force (nil: unencrypted, or `METHOD=NONE`).
    public var key: HLSKey?
    public var map: HLSMap?
    public var discontinuity: Bool
    public var isGap: Bool
    /// `#EXT-X-PROGRAM-DATE-TIME` as written.
    public var programDateTime: String?
    /// Low-latency parts that precede this segment's URI line.
    public var parts: [HLSPart]

    public init(uri: String, duration: Double, title: String? = nil, sequence: Int, byteRange: HLSByteRange? = nil, key: HLSKey? = nil,
                map: HLSMap? = nil, discontinuity: Bool = false, isGap: Bool = false, programDateTime: String? = nil, parts: [HLSPart] = []) {
        self.uri = uri
        self.duration = duration
        self.title = title
        self.sequence = sequence
        self.byteRange = byteRange
        self.key = key
        self.map = map
        self.discontinuity = discontinuity
        self.isGap = isGap
        self.programDateTime = programDateTime
        self.parts = parts
    }
}
