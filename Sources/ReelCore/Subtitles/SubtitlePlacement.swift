/// Where a cue is drawn on the picture, as its file asks: ASS's `\an1`…`\an9` (numpad layout;
/// the legacy `\a1`…`\a11` too) and WebVTT's `line` and `align` settings. Cues without one are
/// drawn at the bottom, centred (and move with `sub-pos`).
public struct SubtitlePlacement: Equatable, Sendable, Hashable {
    public enum Vertical: Sendable, Hashable { case top, middle, bottom }
    public enum Horizontal: Sendable, Hashable { case left, center, right }
    public var vertical: Vertical
    public var horizontal: Horizontal

    public init(vertical: Vertical = .bottom, horizontal: Horizontal = .center) {
        self.vertical = vertical
        self.horizontal = horizontal
    }

    public static let standard = SubtitlePlacement()

    /// ASS `\anN`: 1–3 bottom, 4–6 middle, 7–9 top; 1, 4, 7 left, 3, 6, 9 right.
    public init?(numpad n: Int) {
        guard (1...9).contains(n) else { return nil }
        vertical = n <= 3 ? .bottom : n <= 6 ? .middle : .top
        horizontal = [.left, .center, .right][(n - 1) % 3]
    }

    /// SSA's legacy `\aN`: 1–3 bottom, 5–7 top, 9–11 middle (left, centre, right in each).
    public init?(legacy n: Int) {
        let rows: [(ClosedRange<Int>, Vertical)] = [(1...3, .bottom), (5...7, .top), (9...11, .middle)]
        guard let (range, row) = rows.first(where: { $0.0.contains(n) }) else { return nil }
        vertical = row
        horizontal = [.left, .center, .right][n - range.lowerBound]
    }

    /// Where a WebVTT cue goes by its settings (WebVTT §7.2 for horizontal text): the cue box's
    /// left edge and width from `position`, its alignment and `size`; the text's alignment in the
    /// box from `align`; `line` as a line number (≥ 0 at the top, < 0 at the bottom) or a
    /// percentage of the height with its line alignment. Nil when the settings say nothing.
    public init?(webVTT settings: WebVTTCueSettings) {
        var placement = SubtitlePlacement.standard
        switch settings.line {
        case .auto: break
        case .number(let n): placement.vertical = n >= 0 ? .top : .bottom
        case .percent(let p):
            placement.y = p / 100
            placement.vertical = switch settings.lineAlign { case .start: .top; case .center: .middle; case .end: .bottom }
        }
        let box = settings.box
        switch settings.align {
        case .start, .left:
            placement.horizontal = .left
            placement.x = box.left / 100
        case .end, .right:
            placement.horizontal = .right
            placement.x = (box.left + box.width) / 100
        case .center:
            placement.x = (box.left + box.width / 2) / 100
        }
        // The default box (no position, full size): the overlay's own margins, not the edge.
        if settings.position == nil, settings.size == 100 { placement.x = nil }
        if box.width < 100 { placement.width = max(0, box.width) / 100 }
        guard placement != .standard else { return nil }
        self = placement
    }

    /// Where the text's `horizontal` edge (left, centre, right) is, 0…1 of the picture's width;
    /// nil: the overlay's own margin (or its centre).
    public var x: Double?
    /// Where the text's `vertical` edge (top, middle, bottom) is, 0…1 of the picture's height;
    /// nil: the overlay's own margin (or its middle).
    public var y: Double?
    /// The widest the text may be, 0…1 of the picture's width (it wraps there); nil: the
    /// picture's width.
    public var width: Double?
}
