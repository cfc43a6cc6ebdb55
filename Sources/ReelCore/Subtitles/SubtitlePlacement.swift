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

    /// WebVTT cue settings ("line:0 align:start position:10%"): `line` a line number (≥ 0 from
    /// the top, < 0 from the bottom) or a percentage of the height; `align` start/left,
    /// center/middle, end/right. Nil when neither says anything.
    public init?(webVTTSettings settings: Substring) {
        var placement = SubtitlePlacement.standard
        var said = false
        for setting in settings.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
            guard let colon = setting.firstIndex(of: ":") else { continue }
            let name = setting[..<colon], value = setting[setting.index(after: colon)...].split(separator: ",").first ?? ""
            switch name {
            case "line":
                if value.hasSuffix("%"), let percent = Double(value.dropLast()), (0...100).contains(percent) {
                    placement.vertical = percent < 34 ? .top : percent <= 66 ? .middle : .bottom
                    said = true
                } else if let n = Int(value) {
                    placement.vertical = n >= 0 ? .top : .bottom
                    said = true
                }
            case "align":
                switch value {
                case "start", "left": placement.horizontal = .left; said = true
                case "end", "right": placement.horizontal = .right; said = true
                case "center", "middle": placement.horizontal = .center; said = true
                default: break
                }
            default: break
            }
        }
        guard said else { return nil }
        self = placement
    }
}
