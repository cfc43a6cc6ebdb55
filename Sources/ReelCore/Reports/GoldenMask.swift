/// What a comparison of pictures leaves out or holds to its own threshold (issue 59): rectangles
/// in the picture's pixels (`X,Y,W,H`), or for a window capture a widget by its accessible name
/// (resolved through the widget tree when the window is captured).
public enum MaskArea: Equatable, Sendable {
    case rect(x: Int, y: Int, width: Int, height: Int)
    case widget(String)

    /// `X,Y,W,H` (whole pixels, W and H above 0), else a widget's name (1–200 characters).
    public static func parse(_ text: String, widgets: Bool) -> MaskArea? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        if parts.count == 4 {
            let n = parts.compactMap { Int($0) }
            guard n.count == 4, n[0] >= 0, n[1] >= 0, n[2] > 0, n[3] > 0, n.allSatisfy({ $0 <= 65_535 }) else { return nil }
            return .rect(x: n[0], y: n[1], width: n[2], height: n[3])
        }
        // Numbers and commas are a rectangle, never a name (“1,2” is a mistake, not a widget).
        guard widgets, !text.isEmpty, text.count <= 200, !text.allSatisfy({ $0.isNumber || $0 == "," || $0 == " " || $0 == "-" }) else { return nil }
        return .widget(text)
    }
}

/// A region with its own SSIM threshold (`--golden-region X,Y,W,H:SSIM`).
public struct GoldenRegion: Equatable, Sendable {
    public var x: Int, y: Int, width: Int, height: Int
    public var threshold: Double

    public init(x: Int, y: Int, width: Int, height: Int, threshold: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height; self.threshold = threshold
    }

    public static func parse(_ text: String) -> GoldenRegion? {
        let halves = text.split(separator: ":", omittingEmptySubsequences: false)
        guard halves.count == 2, let t = Double(halves[1]), t.isFinite, (0...1).contains(t),
              case .rect(let x, let y, let w, let h)? = MaskArea.parse(String(halves[0]), widgets: false) else { return nil }
        return GoldenRegion(x: x, y: y, width: w, height: h, threshold: t)
    }
}

extension FrameSimilarity {
    /// The plane's samples inside `rects` (in pixels of a `frame`-sized picture) set to 0, in both
    /// planes alike: a masked area is the same in both, whatever it showed.
    public static func mask(_ plane: inout [UInt8], rects: [(x: Int, y: Int, width: Int, height: Int)], frame: (width: Int, height: Int)) {
        let (w, h) = size
        guard frame.width > 0, frame.height > 0, plane.count == w * h else { return }
        for r in rects {
            let x0 = max(0, r.x * w / frame.width), y0 = max(0, r.y * h / frame.height)
            let x1 = min(w, ((r.x + r.width) * w + frame.width - 1) / frame.width), y1 = min(h, ((r.y + r.height) * h + frame.height - 1) / frame.height)
            guard x0 < x1, y0 < y1 else { continue }
            for y in y0..<y1 { for x in x0..<x1 { plane[y * w + x] = 0 } }
        }
    }

    /// The mean SSIM of the windows whose centre is in the region (pixels of a `frame`-sized
    /// picture), 0 at the least (below is a picture unlike the other as well); nil when no
    /// window's centre is in it.
    public func ssim(inRegion r: GoldenRegion, frame: (width: Int, height: Int)) -> Double? {
        let (w, h) = Self.size
        guard frame.width > 0, frame.height > 0 else { return nil }
        var sum = 0.0, count = 0
        for row in 0..<rows {
            for column in 0..<columns {
                let cx = Double(column * Self.stride + Self.window / 2) * Double(frame.width) / Double(w)
                let cy = Double(row * Self.stride + Self.window / 2) * Double(frame.height) / Double(h)
                guard cx >= Double(r.x), cx < Double(r.x + r.width), cy >= Double(r.y), cy < Double(r.y + r.height) else { continue }
                sum += map[row * columns + column]
                count += 1
            }
        }
        return count == 0 ? nil : max(0, sum / Double(count))
    }
}
