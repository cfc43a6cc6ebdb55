import Foundation

/// mpv's `video-rotate` (0, 90, 180, 270, clockwise), `video-zoom` (log2: 1 is twice the size,
/// -1 half) and `video-pan-x`/`video-pan-y` (fractions of the picture: 0.1 moves it a tenth of
/// its width right). Pure: the pixels `videobox` takes off each side of a picture (negative: a
/// border added, for a zoom below 0) and `videoflip`'s method.
public struct VideoGeometry: Equatable, Sendable {
    public static let rotations = [0, 90, 180, 270]
    public static let zoomRange = -3.0...3.0
    public static let panRange = -3.0...3.0

    public var rotate = 0 { didSet { rotate = Self.rotations.contains(rotate) ? rotate : oldValue } }
    public var zoom = 0.0 { didSet { zoom = zoom.isFinite ? min(Self.zoomRange.upperBound, max(Self.zoomRange.lowerBound, zoom)) : 0 } }
    public var panX = 0.0 { didSet { panX = panX.isFinite ? min(Self.panRange.upperBound, max(Self.panRange.lowerBound, panX)) : 0 } }
    public var panY = 0.0 { didSet { panY = panY.isFinite ? min(Self.panRange.upperBound, max(Self.panRange.lowerBound, panY)) : 0 } }

    public init() {}

    public var isNeutral: Bool { rotate == 0 && zoom == 0 && panX == 0 && panY == 0 }

    /// videoflip's `method`: 0 none, 1 clockwise, 2 half turn, 3 counter-clockwise.
    public var flipMethod: Int { rotate / 90 }

    /// `videobox`'s left, right, top and bottom for a `width`×`height` picture (after rotation):
    /// what is cut off (positive) or added as a border (negative) so that the window shows the
    /// zoomed, panned part.
    public func box(width: Int, height: Int) -> (left: Int, right: Int, top: Int, bottom: Int) {
        let scale = pow(2, zoom)
        func sides(_ size: Int, _ pan: Double) -> (Int, Int) {
            let size = Double(size)
            let margin = (size - size / scale) / 2
            let shift = pan * size
            return (Int((margin - shift).rounded()), Int((margin + shift).rounded()))
        }
        let (left, right) = sides(width, panX), (top, bottom) = sides(height, panY)
        return (left, right, top, bottom)
    }
}
