import Foundation

/// `reel check --max-startup S --max-dropped PCT --max-stalls N --max-rebuffer-ratio PCT
/// --min-bitrate-ratio PCT`: the item's QoE numbers (`PlaybackQoE`) turned into a verdict. A
/// breach is an error problem with the figure and the bound; a playlist entry's own options
/// (`#EXTREEL:max-startup=2`) hold it to bounds of its own.
public struct CheckThresholds: Sendable, Equatable {
    public var maxStartup: Double?
    public var maxDroppedPercent: Double?
    public var maxStalls: Int?
    public var maxRebufferPercent: Double?
    public var minBitratePercent: Double?

    public init(maxStartup: Double? = nil, maxDroppedPercent: Double? = nil, maxStalls: Int? = nil,
                maxRebufferPercent: Double? = nil, minBitratePercent: Double? = nil) {
        self.maxStartup = maxStartup; self.maxDroppedPercent = maxDroppedPercent; self.maxStalls = maxStalls
        self.maxRebufferPercent = maxRebufferPercent; self.minBitratePercent = minBitratePercent
    }

    /// Each bound: its option (and playlist option) name, its problem's code.
    public enum Bound: String, CaseIterable, Sendable {
        case startup = "max-startup", dropped = "max-dropped", stalls = "max-stalls"
        case rebuffer = "max-rebuffer-ratio", bitrate = "min-bitrate-ratio"

        public var code: String {
            switch self {
            case .startup: "startup-too-slow"
            case .dropped: "dropped-frames"
            case .stalls: "too-many-stalls"
            case .rebuffer: "rebuffering"
            case .bitrate: "bitrate-too-low"
            }
        }

        /// The values a bound takes: seconds for the startup, a count of stalls, else percent.
        var range: ClosedRange<Double> {
            switch self {
            case .startup: 0...86_400
            case .stalls: 0...1_000_000
            default: 0...100
            }
        }
    }

    public var isEmpty: Bool { self == CheckThresholds() }

    /// Reads one bound's text ("5", "30%", "2.5"); nil when it is not one.
    public static func value(_ text: String, for bound: Bound) -> Double? {
        var t = text.trimmingCharacters(in: .whitespaces)
        if bound != .startup, bound != .stalls, t.hasSuffix("%") { t.removeLast() }
        if bound == .startup, t.hasSuffix("s") { t.removeLast() }
        guard let v = Double(t), v.isFinite, bound.range.contains(v) else { return nil }
        if bound == .stalls, v.rounded() != v { return nil }
        return v
    }

    public mutating func set(_ bound: Bound, _ value: Double) {
        switch bound {
        case .startup: maxStartup = value
        case .dropped: maxDroppedPercent = value
        case .stalls: maxStalls = Int(value)
        case .rebuffer: maxRebufferPercent = value
        case .bitrate: minBitratePercent = value
        }
    }

    /// These bounds, with an item's own options over them; throws on a malformed one.
    public func overridden(by options: [String: [String]]) throws -> CheckThresholds {
        var t = self
        for bound in Bound.allCases {
            guard let text = options[bound.rawValue]?.last else { continue }
            guard let v = Self.value(text, for: bound) else {
                throw CheckScenario.ParseError(line: 0, message: "the item's \(bound.rawValue)=\(text.prefix(40)) is not a bound")
            }
            t.set(bound, v)
        }
        return t
    }

    /// The breaches of these bounds by what was measured (each with its figure and bound).
    public func problems(_ q: PlaybackQoE) -> [HLSProblem] {
        var out: [HLSProblem] = []
        func breach(_ bound: Bound, _ figure: Double, _ message: String) {
            out.append(HLSProblem(line: nil, severity: .error, code: bound.code, message: message, figure: figure))
        }
        if let max = maxStartup {
            if let s = q.startupSeconds {
                if s > max { breach(.startup, s, String(format: "the first frame came %.2f s after the load (at most %g s)", s, max)) }
            } else {
                breach(.startup, .infinity, String(format: "no first frame (at most %g s)", max))
            }
        }
        if let max = maxDroppedPercent, let p = q.droppedPercent, p > max {
            breach(.dropped, p, String(format: "%.1f %% of the frames were dropped (%d of %d; at most %g %%)", p, q.droppedFrames, q.droppedFrames + q.renderedFrames, max))
        }
        if let max = maxStalls, q.stalls > max {
            breach(.stalls, Double(q.stalls), String(format: "%d stalls, %.2f s in all (at most %d)", q.stalls, q.stallSeconds, max))
        }
        if let max = maxRebufferPercent, let p = q.rebufferingPercent, p > max {
            breach(.rebuffer, p, String(format: "a rebuffering ratio of %.1f %% (%.2f s stalled of %.2f s; at most %g %%)", p, q.stallSeconds, q.stallSeconds + q.playSeconds, max))
        }
        if let min = minBitratePercent, let p = q.bitratePercent, p < min {
            breach(.bitrate, p, String(format: "a time-weighted bitrate of %.0f kbit/s, %.1f %% of the top rendition's %.0f kbit/s (at least %g %%)",
                                       Double(q.timeWeightedBitrate ?? 0) / 1000, p, Double(q.topBitrate ?? 0) / 1000, min))
        }
        return out
    }
}
