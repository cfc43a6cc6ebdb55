import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Every number an MPD gives, read within bounds (as `BoundedNumber` does for HLS's tags): one
/// rule per attribute, used both by the readers (a number outside its bounds reads as absent, so
/// no arithmetic on it can trap or loop) and by `violation(in:)`, which names the first number out
/// of bounds so that the MPD is refused as `invalid-playlist` before anything plays it.
///
/// Seen (issue 46): `startNumber="9223372036854775807"` overflowed, `d="1e-300"` trapped in a
/// conversion and looped for ever in a live window, `timeShiftBufferDepth="-PT100S"` made an
/// inverted range, a `%0999999999999d` width asked for a terabyte.
public enum DASHNumber {
    /// Ticks (`S@t`, `S@d`, `@presentationTimeOffset`, a template's `@duration`): whole numbers
    /// below 2^53, where a Double still counts every tick.
    public static let maximumTicks = 9_007_199_254_740_992.0
    /// `@startNumber`, `@endNumber`, `@bandwidth`, `@width`, `@height`: whole, 0…2^53.
    public static let maximumWhole = 1 << 53
    /// `@timescale`: ticks per second, 1…2^32 (an unsigned int in ISO/IEC 23009-1).
    public static let maximumTimescale = 4_294_967_296.0
    /// `S@r`: −1 (up to the next S or the Period's end) to 2^31 − 2 (repeat counts are signed ints).
    public static let repeatRange = -1...Int(Int32.max) - 1
    /// A segment shorter than this (in seconds) is not a segment (`d="1e-300"`).
    public static let minimumSegmentSeconds = 0.001
    /// `%0Nd` widths in templates.
    public static let maximumWidth = 32

    public enum Rule: Sendable {
        case ticks          // whole, 0…2^53
        case positiveTicks  // whole, 1…2^53
        case whole          // whole, 0…2^53
        case repeatCount    // whole, −1…2^31 − 2
        case timescale      // 1…2^32
        case seconds        // an xs:duration, 0…BoundedNumber.maximumSeconds
    }

    /// The rules by element and attribute (elements not named use `"*"`).
    static let rules: [String: [String: Rule]] = [
        "MPD": ["mediaPresentationDuration": .seconds, "minBufferTime": .seconds, "timeShiftBufferDepth": .seconds,
                "suggestedPresentationDelay": .seconds, "maxSegmentDuration": .seconds, "minimumUpdatePeriod": .seconds,
                "maxSubsegmentDuration": .seconds],
        "Period": ["start": .seconds, "duration": .seconds],
        "SegmentTemplate": segmentRules, "SegmentList": segmentRules, "SegmentBase": segmentRules,
        "S": ["t": .ticks, "d": .positiveTicks, "r": .repeatCount],
        "AdaptationSet": ["width": .whole, "height": .whole, "maxWidth": .whole, "maxHeight": .whole, "minBandwidth": .whole, "maxBandwidth": .whole],
        "Representation": ["bandwidth": .whole, "width": .whole, "height": .whole],
    ]
    static let segmentRules: [String: Rule] = ["timescale": .timescale, "duration": .positiveTicks, "presentationTimeOffset": .ticks,
                                               "startNumber": .whole, "endNumber": .whole]

    /// `text` read by `rule`; nil when it is not such a number or out of bounds.
    public static func value(_ text: String, _ rule: Rule) -> Double? {
        if rule == .seconds {
            guard let s = DASHInspection.isoDuration(text), s.isFinite, s >= 0, s <= BoundedNumber.maximumSeconds else { return nil }
            return s
        }
        guard let v = Double(text.trimmingCharacters(in: .whitespaces)), v.isFinite else { return nil }
        switch rule {
        case .ticks: return v >= 0 && v <= maximumTicks && v == v.rounded() ? v : nil
        case .positiveTicks: return v >= 1 && v <= maximumTicks && v == v.rounded() ? v : nil
        case .whole: return v >= 0 && v <= Double(maximumWhole) && v == v.rounded() ? v : nil
        case .repeatCount: return v == v.rounded() && v >= Double(repeatRange.lowerBound) && v <= Double(repeatRange.upperBound) ? v : nil
        case .timescale: return v >= 1 && v <= maximumTimescale ? v : nil
        case .seconds: return nil
        }
    }

    /// An attribute of `element` read by `rule`; nil when absent or out of bounds.
    public static func read(_ element: XMLElement, _ name: String, _ rule: Rule) -> Double? {
        DASHInspection.attribute(element, name).flatMap { value($0, rule) }
    }

    /// A whole-number attribute (`.whole`, `.repeatCount`) as an Int.
    public static func integer(_ element: XMLElement, _ name: String, _ rule: Rule = .whole) -> Int? {
        read(element, name, rule).map { Int($0) }  // within ±2^53: exact, never traps
    }

    /// An xs:duration attribute in seconds, within 0…`BoundedNumber.maximumSeconds`.
    public static func seconds(_ element: XMLElement, _ name: String) -> Double? { read(element, name, .seconds) }

    /// The first number of the MPD out of its bounds, said for a person ("S@d=\"1e-300\" ..."), or
    /// nil when every number is within them.
    public static func violation(in root: XMLElement) -> String? {
        var stack: [(element: XMLElement, timescale: Double)] = [(root, 1)]
        while let (element, inherited) = stack.popLast() {
            let name = element.localName ?? ""
            var timescale = inherited
            for (attribute, rule) in rules[name] ?? [:] {
                guard let text = DASHInspection.attribute(element, attribute) else { continue }
                guard let v = value(text, rule) else {
                    return "\(name)@\(attribute)=\"\(text.prefix(40))\" is out of bounds"
                }
                if attribute == "timescale" { timescale = v }
            }
            if name == "SegmentTemplate" {
                for attribute in ["media", "initialization", "index"] {
                    if let text = DASHInspection.attribute(element, attribute), let width = widestFormat(text), width > maximumWidth {
                        return "SegmentTemplate@\(attribute) pads a number to \(width) digits (at most \(maximumWidth))"
                    }
                }
                if let d = read(element, "duration", .positiveTicks), d / timescale < minimumSegmentSeconds {
                    return "SegmentTemplate@duration is \(d / timescale) s (at least \(minimumSegmentSeconds) s)"
                }
            }
            if name == "S", let d = read(element, "d", .positiveTicks), d / timescale < minimumSegmentSeconds {
                return "S@d is \(d / timescale) s (at least \(minimumSegmentSeconds) s)"
            }
            for child in (element.children ?? []).reversed() {
                if let e = child as? XMLElement { stack.append((e, timescale)) }
            }
        }
        return nil
    }

    /// The widest `%0Nd` in a template (nil when none); a width too long to read counts as huge.
    static func widestFormat(_ template: String) -> Int? {
        var widest: Int?
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "$") {
            let after = rest[rest.index(after: open)...]
            guard let close = after.firstIndex(of: "$") else { break }
            let token = after[..<close]
            if let percent = token.firstIndex(of: "%") {
                let digits = token[token.index(after: percent)...].drop { $0 == "0" }.prefix { $0.isASCII && $0.isNumber }
                let width = digits.count > 6 ? Int.max : Int(digits) ?? 0
                widest = max(widest ?? 0, width)
            }
            rest = after[after.index(after: close)...]
        }
        return widest
    }

    /// A tick count written back into an MPD: rounded, never trapping (`Int64(1e20)` would).
    public static func wholeText(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        if abs(value) < 9e18 { return String(Int64(value.rounded())) }
        return String(format: "%.0f", value)
    }

    /// The timescale of a template chain (the nearest that says one, within bounds), else 1.
    static func timescale(_ templates: [XMLElement]) -> Double {
        templates.lazy.compactMap { read($0, "timescale", .timescale) }.first ?? 1
    }
}
