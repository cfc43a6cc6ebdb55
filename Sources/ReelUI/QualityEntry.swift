import ReelCore

/// One line of the control bar's quality menu: what it says ("Auto", "720p") and the choice it
/// makes (`QualityChoice` text: "auto", or a rendition's index).
public struct QualityEntry: Sendable, Equatable {
    public var label: String
    public var choice: String

    public init(label: String, choice: String) { self.label = label; self.choice = choice }

    /// Auto, then the renditions from the tallest down (the same height twice: the higher
    /// bitrate first, each labelled with its bitrate).
    public static func entries(for renditions: [HLSVariant]) -> [QualityEntry] {
        guard !renditions.isEmpty else { return [] }
        let order = renditions.indices.sorted {
            (renditions[$0].resolution?.height ?? 0, renditions[$0].bandwidth ?? 0) > (renditions[$1].resolution?.height ?? 0, renditions[$1].bandwidth ?? 0)
        }
        let heights = renditions.map { $0.resolution?.height }
        return [QualityEntry(label: tr("Auto"), choice: "auto")] + order.map { i in
            let v = renditions[i]
            var label = RenditionSelector.label(v)
            if let h = heights[i], heights.filter({ $0 == h }).count > 1, let bw = v.bandwidth { label += " · \(bw / 1000) kbit/s" }
            return QualityEntry(label: label, choice: "\(i)")
        }
    }

    /// The menu button's text: "Auto · 720p" (what auto plays now), "720p" (a pin), "Auto".
    public static func buttonLabel(manual: Bool, height: Int?) -> String {
        let playing = height.map { "\($0)p" }
        if manual { return playing ?? tr("Quality") }
        return [tr("Auto"), playing].compactMap { $0 }.joined(separator: " · ")
    }
}
