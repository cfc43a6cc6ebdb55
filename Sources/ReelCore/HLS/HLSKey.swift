/// An `#EXT-X-KEY` (or `#EXT-X-SESSION-KEY`): how the following segments are encrypted.
public struct HLSKey: Sendable, Equatable, Hashable, Codable {
    /// `NONE`, `AES-128`, `SAMPLE-AES`, `SAMPLE-AES-CTR`…
    public var method: String
    /// The key's URI as written (relative or absolute; `skd://`, `data:` are kept as they are).
    public var uri: String?
    /// The IV as written (`0x…`), when there is one. Without it, AES-128 uses the media sequence number.
    public var iv: String?
    public var keyFormat: String?
    public var keyFormatVersions: String?

    public init(method: String, uri: String? = nil, iv: String? = nil, keyFormat: String? = nil, keyFormatVersions: String? = nil) {
        self.method = method
        self.uri = uri
        self.iv = iv
        self.keyFormat = keyFormat
        self.keyFormatVersions = keyFormatVersions
    }

    public var isEncrypted: Bool { method.uppercased() != "NONE" }

    /// The IV as 16 bytes: the explicit one, or the media sequence number big-endian (RFC 8216 5.2).
    public func ivBytes(mediaSequence: Int) -> [UInt8] {
        if let iv, iv.lowercased().hasPrefix("0x") {
            var hex = String(iv.dropFirst(2))
            if hex.count < 32 { hex = String(repeating: "0", count: 32 - hex.count) + hex }
            var bytes: [UInt8] = []
            var index = hex.startIndex
            while index < hex.endIndex, bytes.count < 16 {
                let next = hex.index(index, offsetBy: 2)
                bytes.append(UInt8(hex[index..<next], radix: 16) ?? 0)
                index = next
            }
            return bytes
        }
        var bytes = [UInt8](repeating: 0, count: 16)
        var n = UInt64(max(0, mediaSequence))
        for i in stride(from: 15, through: 8, by: -1) { bytes[i] = UInt8(n & 0xff); n >>= 8 }
        return bytes
    }
}
