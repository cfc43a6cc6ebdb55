import Foundation
#if canImport(ReelCore)
@testable import ReelCore
#endif

/// Byte ranges from outside: the gateway's `Range` header parsing (`HTTPByteRange`, local files)
/// and HLS `BYTERANGE` values (`HLSByteRange`). Never a trap (issue 12: `2^63-1@2^63-1` trapped);
/// a resolved range always lies inside the body; an HLS range's end never overflows.
enum ByteRangeFuzz {
    static func run(_ bytes: [UInt8]) {
        let text = String(decoding: bytes.dropFirst(min(8, bytes.count)), as: UTF8.self)
        var size: Int64 = 0
        for b in bytes.prefix(8) { size = size << 8 | Int64(b) }
        size = size == Int64.min ? Int64.max : abs(size)
        for candidate in [text, "bytes=" + text] {
            if let r = HTTPByteRange.resolve(candidate, size: size) {
                if r.lowerBound < 0 || r.upperBound >= size || r.lowerBound > r.upperBound { fuzzFailure("\(candidate) in \(size) → \(r)") }
            }
            if let h = HLSByteRange(candidate) {
                if h.length < 0 || (h.offset ?? 0) < 0 { fuzzFailure("negative \(h)") }
                if let range = h.httpRange, h.end == nil { fuzzFailure("\(range) without an end") }
            }
        }
    }
}
