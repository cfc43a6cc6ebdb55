/// An `#EXT-X-BYTERANGE` / `BYTERANGE=` value: `length[@offset]`. A missing offset continues
/// from the end of the previous range of the same resource; the parser fills it in when it can.
public struct HLSByteRange: Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
    public var length: Int
    public var offset: Int?
    public init(length: Int, offset: Int? = nil) { self.length = length; self.offset = offset }

    /// Parses `1000@200` or `1000`.
    public init?(_ text: String) {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: "@", omittingEmptySubsequences: false)
        guard let first = parts.first, let length = Int(first), length >= 0 else { return nil }
        self.length = length
        if parts.count == 2 {
            guard let offset = Int(parts[1]), offset >= 0 else { return nil }
            self.offset = offset
        } else if parts.count > 2 {
            return nil
        }
    }

    /// The HTTP `Range` header value, when the offset is known.
    public var httpRange: String? { offset.map { "bytes=\($0)-\($0 + length - 1)" } }
    public var description: String { offset.map { "\(length)@\($0)" } ?? "\(length)" }
}
