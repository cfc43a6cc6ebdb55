/// An `#EXT-X-PART` (low-latency HLS): a partial segment.
public struct HLSPart: Sendable, Equatable, Hashable, Codable {
    public var uri: String
    public var duration: Double
    public var isIndependent: Bool
    public var byteRange: HLSByteRange?
    public var isGap: Bool
    public init(uri: String, duration: Double, isIndependent: Bool = false, byteRange: HLSByteRange? = nil, isGap: Bool = false) {
        self.uri = uri
        self.duration = duration
        self.isIndependent = isIndependent
        self.byteRange = byteRange
        self.isGap = isGap
    }
}
