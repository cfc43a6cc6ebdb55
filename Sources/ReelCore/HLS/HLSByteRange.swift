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
            // The range must end inside what an Int can count (a playlist may say 2^63 - 1 twice).
            guard let offset = Int(parts[1]), offset >= 0, BoundedNumber.sum(offset, length) != nil else { return nil }
            self.offset = offset
        } else if parts.count > 2 {
            return nil
        }
    }

    /// The offset just past the range, when the offset is known and the sum fits in an Int.
    public var end: Int? { offset.flatMap { BoundedNumber.sum($0, length) } }

    /// The HTTP `Range` header value, when the offset is known (nil for an empty range).
    public var httpRange: String? {
        guard let offset, let end, end > offset else { return nil }
        return "bytes=\(offset)-\(end - 1)"
    }
    public var description: String { offset.map { "\(length)@\($0)" } ?? "\(length)" }
}
