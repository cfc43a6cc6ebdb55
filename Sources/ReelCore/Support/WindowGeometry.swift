/// mpv's `--geometry`: `WxH`, `WxH+X+Y`, `+X+Y`, `W` alone, and any length in percent of the
/// screen (`50%`, `50%x40%`). A width alone keeps the default's shape. Pure: the screen's size is
/// given when the window is made.
public struct WindowGeometry: Equatable, Sendable {
    public enum Length: Equatable, Sendable {
        case pixels(Int)
        case percent(Double)

        func resolve(_ whole: Int) -> Int {
            switch self {
            case .pixels(let p): p
            case .percent(let f): Int((Double(whole) * f / 100).rounded())
            }
        }
    }

    public var width: Length?
    public var height: Length?
    public var x: Int?
    public var y: Int?

    public init(width: Length? = nil, height: Length? = nil, x: Int? = nil, y: Int? = nil) {
        self.width = width; self.height = height; self.x = x; self.y = y
    }

    /// The window's sides' bounds (as the remembered size's).
    public static let widths = 160...16_384, heights = 90...16_384

    /// nil for anything else (`800`, `800x`, `x450`, `0x0`, `12345678x1` are refused or bounded).
    public static func parse(_ text: String) -> WindowGeometry? {
        var rest = Substring(text.trimmingCharacters(in: .whitespaces))
        guard !rest.isEmpty, rest.count <= 40 else { return nil }
        var g = WindowGeometry()
        if let plus = rest.firstIndex(of: "+") {
            let place = rest[rest.index(after: plus)...].split(separator: "+", omittingEmptySubsequences: false)
            guard place.count == 2, let x = Int(place[0]), let y = Int(place[1]), (0...65_535).contains(x), (0...65_535).contains(y) else { return nil }
            g.x = x
            g.y = y
            rest = rest[..<plus]
        }
        guard !rest.isEmpty else { return g.x == nil ? nil : g }
        let sides = rest.split(separator: "x", omittingEmptySubsequences: false)
        guard sides.count <= 2, let w = length(sides[0]) else { return nil }
        g.width = w
        if sides.count == 2 {
            guard let h = length(sides[1]) else { return nil }
            g.height = h
        }
        return g
    }

    private static func length(_ text: Substring) -> Length? {
        if text.hasSuffix("%") {
            guard let f = Double(text.dropLast()), f.isFinite, f > 0, f <= 100 else { return nil }
            return .percent(f)
        }
        guard text.allSatisfy(\.isASCII), let p = Int(text), p > 0, p <= 16_384 else { return nil }
        return .pixels(p)
    }

    /// The window's size on a screen of `screen`, from the default size's shape when only a width is given.
    public func size(screen: (width: Int, height: Int), default fallback: (width: Int, height: Int)) -> (width: Int, height: Int) {
        let w = width?.resolve(screen.width) ?? fallback.width
        let h = height?.resolve(screen.height) ?? (width == nil ? fallback.height : Int((Double(w) * Double(fallback.height) / Double(fallback.width)).rounded()))
        return (min(Self.widths.upperBound, max(Self.widths.lowerBound, w)), min(Self.heights.upperBound, max(Self.heights.lowerBound, h)))
    }
}
