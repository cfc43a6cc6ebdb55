/// A WebVTT cue's settings as the W3C algorithm reads them ("parse the WebVTT cue settings",
/// WebVTT §6.3): `vertical`, `line` (a line number that snaps to lines, or a percentage, with an
/// optional line alignment), `position` (a percentage, with an optional position alignment),
/// `size`, `align` and `region`. A setting the algorithm does not accept leaves its default.
public struct WebVTTCueSettings: Equatable, Sendable {
    public enum Line: Equatable, Sendable {
        case auto
        /// A line number: ≥ 0 counts lines from the top, < 0 from the bottom (snap-to-lines).
        case number(Double)
        /// A percentage of the picture's height (snap-to-lines off).
        case percent(Double)
    }
    public enum LineAlign: String, Sendable { case start, center, end }
    public enum PositionAlign: String, Sendable { case auto, lineLeft = "line-left", center, lineRight = "line-right" }
    public enum Align: String, Sendable { case start, center, end, left, right }
    public enum Vertical: String, Sendable { case horizontal = "", rl, lr }

    public var vertical = Vertical.horizontal
    public var line = Line.auto
    public var lineAlign = LineAlign.start
    /// nil: auto.
    public var position: Double?
    public var positionAlign = PositionAlign.auto
    public var size = 100.0
    public var align = Align.center
    public var region: String?

    public init() {}

    /// The defaults ("Cue creation"): nothing said.
    public var isDefault: Bool { self == WebVTTCueSettings() }

    /// "Parse the WebVTT cue settings" over the text after a timing line's end time. `regions`
    /// are the identifiers of the file's REGION blocks (a cue names one of them or none).
    public init(parsing input: Substring, regions: [String] = []) {
        // Step 1: split on spaces (ASCII whitespace).
        for setting in input.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\u{0C}" || $0 == "\r" }) {
            // Step 2.1: a colon, neither first nor last.
            guard let colon = setting.firstIndex(of: ":"), colon != setting.startIndex, setting.index(after: colon) != setting.endIndex else { continue }
            // Steps 2.2–2.3: name and value.
            let name = setting[..<colon], value = setting[setting.index(after: colon)...]
            // Step 2.4: by name, case-sensitive.
            switch name {
            case "region":
                region = regions.last(where: { $0 == value })
            case "vertical":
                if value == "rl" { vertical = .rl } else if value == "lr" { vertical = .lr }
                if vertical != .horizontal { region = nil }
            case "line":
                readLine(value)
            case "position":
                let (colpos, colalign) = Self.split(value)
                // "auto" is the default's name, not a value the setting takes.
                guard let number = Self.percentage(colpos), colalign != "auto",
                      let alignment = Self.alignment(colalign, else: positionAlign) else { continue }
                positionAlign = alignment
                position = number
            case "size":
                guard let number = Self.percentage(value) else { continue }
                size = number
                if size != 100 { region = nil }
            case "align":
                if let a = Align(rawValue: String(value)) { align = a }
            default:
                continue
            }
        }
    }

    /// A setting's alignment after its comma, by its name: none keeps `current`; one the setting
    /// does not know is nil (the whole setting is then ignored, as the algorithm says).
    private static func alignment<A: RawRepresentable>(_ name: Substring?, else current: A) -> A? where A.RawValue == String {
        guard let name else { return current }
        return A(rawValue: String(name))
    }

    private mutating func readLine(_ value: Substring) {
        let (linepos, linealign) = Self.split(value)
        guard linepos.contains(where: \.isASCIIDigit) else { return }
        let number: Double
        if linepos.last == "%" {
            guard let p = Self.percentage(linepos) else { return }
            number = p
        } else {
            guard linepos.allSatisfy({ $0 == "-" || $0 == "." || $0.isASCIIDigit }),
                  !linepos.dropFirst().contains("-"), linepos.filter({ $0 == "." }).count <= 1 else { return }
            if let dot = linepos.firstIndex(of: ".") {
                guard dot != linepos.startIndex, linepos.index(after: dot) != linepos.endIndex,
                      linepos[linepos.index(before: dot)].isASCIIDigit, linepos[linepos.index(after: dot)].isASCIIDigit else { return }
            }
            guard let n = Double(linepos) else { return }
            number = n
        }
        guard let alignment = Self.alignment(linealign, else: lineAlign) else { return }
        lineAlign = alignment
        line = linepos.last == "%" ? .percent(number) : .number(number)
        region = nil
    }

    /// `value` split at its first comma.
    private static func split(_ value: Substring) -> (Substring, Substring?) {
        guard let comma = value.firstIndex(of: ",") else { return (value, nil) }
        return (value[..<comma], value[value.index(after: comma)...])
    }

    /// "Parse a percentage string": one or more digits, optionally "." and one or more digits,
    /// then "%"; 0…100.
    static func percentage(_ text: Substring) -> Double? {
        guard text.last == "%" else { return nil }
        let number = text.dropLast()
        let parts = number.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }),
              let value = Double(number), (0...100).contains(value) else { return nil }
        return value
    }

    // MARK: Where the cue goes (WebVTT §7.2, "apply WebVTT cue settings", horizontal text)

    /// The position alignment the cue is laid out with ("computed position alignment").
    public var computedPositionAlign: PositionAlign {
        if positionAlign != .auto { return positionAlign }
        switch align {
        case .left, .start: return .lineLeft  // left-to-right text: start is left
        case .right, .end: return .lineRight
        case .center: return .center
        }
    }

    /// "Computed position": where the position alignment's point is, 0…100 of the width.
    public var computedPosition: Double {
        if let position { return position }
        switch align {
        case .left, .start: return 0
        case .right, .end: return 100
        case .center: return 50
        }
    }

    /// The cue box across the picture (percentages of its width): its left edge and its width,
    /// the size limited to what fits at the position.
    public var box: (left: Double, width: Double) {
        let p = computedPosition
        let maximum = switch computedPositionAlign {
        case .lineLeft: 100 - p
        case .lineRight: p
        default: p <= 50 ? p * 2 : (100 - p) * 2
        }
        let width = min(size, maximum)
        let left = switch computedPositionAlign {
        case .lineLeft: p
        case .lineRight: p - width
        default: p - width / 2
        }
        return (left, width)
    }
}
