/// An `#EXT-X-PRELOAD-HINT` (low-latency HLS): a resource the server will publish next.
public struct HLSPreloadHint: Sendable, Equatable, Hashable, Codable {
    /// `PART` or `MAP`.
    public var type: String
    public var uri: String
    public var byteRangeStart: Int?
    public var byteRangeLength: Int?
    public init(type: String, uri: String, byteRangeStart: Int? = nil, byteRangeLength: Int? = nil) {
        self.type = type
        self.uri = uri
        self.byteRangeStart = byteRangeStart
        self.byteRangeLength = byteRangeLength
    }
}
