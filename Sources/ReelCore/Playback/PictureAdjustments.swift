import Foundation

/// mpv's video equalizer: `brightness`, `contrast`, `saturation`, `gamma` and `hue`, each a whole
/// number from -100 to 100 (0: untouched), as mpv's keys 1–8 and Totem's colour balance change
/// them. Pure: what GStreamer's `videobalance` and `gamma` elements are given (`element`).
public struct PictureAdjustments: Equatable, Sendable {
    public enum Control: String, CaseIterable, Sendable {
        case brightness, contrast, saturation, gamma, hue
    }

    public static let range = -100...100
    /// mpv's step for its keys (1/2 contrast, 3/4 brightness, 5/6 gamma, 7/8 saturation).
    public static let step = 1

    private var values: [Control: Int] = [:]

    public init() {}

    public subscript(control: Control) -> Int {
        get { values[control] ?? 0 }
        set { values[control] = min(Self.range.upperBound, max(Self.range.lowerBound, newValue)) }
    }

    /// All at 0: the elements pass frames through untouched.
    public var isNeutral: Bool { Control.allCases.allSatisfy { self[$0] == 0 } }

    /// The elements' properties: videobalance's brightness (-1…1), contrast and saturation
    /// (0…2, 1 untouched), hue (-1…1), and the gamma element's gamma (2^(g/50): 0.25…4, 1 untouched).
    public var element: (brightness: Double, contrast: Double, saturation: Double, hue: Double, gamma: Double) {
        (Double(self[.brightness]) / 100, 1 + Double(self[.contrast]) / 100, 1 + Double(self[.saturation]) / 100,
         Double(self[.hue]) / 100, pow(2, Double(self[.gamma]) / 50))
    }
}
