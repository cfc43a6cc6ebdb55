/// How the picture fills the video area (the seed's videoGravity): `fit` shows all of it with
/// black bars (resizeAspect), `fill` crops it to the area's shape (resizeAspectFill), `stretch`
/// distorts it to the area (resize). `a` cycles them in that order.
public enum AspectMode: String, CaseIterable, Sendable {
    case fit, fill, stretch

    public var next: AspectMode {
        let all = Self.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }

    /// A reduced fraction (numerator, denominator).
    public struct Ratio: Equatable, Sendable {
        public var numerator: Int
        public var denominator: Int

        public init(_ numerator: Int, _ denominator: Int) {
            let g = Self.gcd(abs(numerator), abs(denominator))
            self.numerator = g == 0 ? numerator : numerator / g
            self.denominator = g == 0 ? denominator : denominator / g
        }

        static func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
    }

    /// The crop for `fill` (aspectratiocrop's `aspect-ratio`): the area's shape; nil crops nothing
    /// (the other modes, or an area not laid out yet).
    public func crop(areaWidth: Int, areaHeight: Int) -> Ratio? {
        guard self == .fill, areaWidth > 0, areaHeight > 0 else { return nil }
        return Ratio(areaWidth, areaHeight)
    }

    /// The pixel aspect ratio that gives a `width`×`height` picture (its size in pixels, whatever
    /// its own pixel aspect ratio) the area's shape, for `stretch`; nil leaves the picture's own.
    public func stretchedPixelAspect(width: Int, height: Int, areaWidth: Int, areaHeight: Int) -> Ratio? {
        guard self == .stretch, width > 0, height > 0, areaWidth > 0, areaHeight > 0 else { return nil }
        // display aspect = width·par / height must become areaWidth / areaHeight.
        return Ratio(areaWidth * height, areaHeight * width)
    }
}
