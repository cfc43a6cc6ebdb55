import Foundation
#if canImport(ReelCore)
@testable import ReelCore
#endif

/// TimeFormat: parsing any text never crashes and yields a finite, non-negative time or nil;
/// every formatter takes any Double (parsed or raw bits: NaN, infinities, huge) without trapping.
enum TimeFormatFuzz {
    static func run(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        if let t = TimeFormat.parse(text) {
            if !t.isFinite || t < 0 { fuzzFailure("parse(\(text.debugDescription)) = \(t)") }
            format(t)
        }
        if bytes.count >= 8 {
            let bits = bytes.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            format(Double(bitPattern: bits))
        }
    }

    static func format(_ t: Double) {
        let c = TimeFormat.clock(t)
        if t.isFinite && c == "--:--" { fuzzFailure("clock(\(t)) is unknown") }
        _ = TimeFormat.remaining(position: t, duration: t * 2)
        _ = TimeFormat.remaining(position: 1, duration: t)
        _ = TimeFormat.fileStamp(t)
    }
}
