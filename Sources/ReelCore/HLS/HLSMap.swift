/// An `#EXT-X-MAP`: the initialization section (fMP4 init segment) for the following segments.
public struct HLSMap: Sendable, Equatable, Hashable, Codable {
    public var uri: String
    public var byteRange: HLSByteRange?
    public init(uri: String, byteRange: HLSByteRange? = nil) { self.uri = uri; self.byteRange = byteRange }
}
