/// What the user asked of an adaptive stream's quality (`--quality`, a playlist entry's
/// `quality` option, `set_property rendition`): hlsdemux2's own choice, a cap, or one rendition.
public enum QualityChoice: Sendable, Equatable, CustomStringConvertible {
    /// hlsdemux2 chooses (within the metered cap, if any).
    case auto
    /// The rendition of this height (the nearest one below it, else the lowest), pinned.
    case height(Int)
    /// The rendition at this index of the master's variants (I-frame variants excluded), pinned.
    case index(Int)
    /// Auto, but no rendition taller than this.
    case maxHeight(Int)
    /// Auto, but no rendition above this BANDWIDTH (bit/s).
    case maxBitrate(Int)

    /// "auto", "720p", "3", "max-height=720", "max-bitrate=2000000"; nil for anything else.
    public init?(_ text: String) {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        if t == "auto" { self = .auto; return }
        if t.hasSuffix("p"), let h = Int(t.dropLast()), (1...100_000).contains(h) { self = .height(h); return }
        if let i = Int(t), (0...10_000).contains(i) { self = .index(i); return }
        if t.hasPrefix("max-height="), let h = Int(t.dropFirst("max-height=".count)), h > 0 { self = .maxHeight(h); return }
        if t.hasPrefix("max-bitrate="), let b = Int(t.dropFirst("max-bitrate=".count)), b > 0 { self = .maxBitrate(b); return }
        return nil
    }

    public var isManual: Bool {
        switch self {
        case .height, .index: true
        default: false
        }
    }

    public var description: String {
        switch self {
        case .auto: "auto"
        case .height(let h): "\(h)p"
        case .index(let i): "\(i)"
        case .maxHeight(let h): "max-height=\(h)"
        case .maxBitrate(let b): "max-bitrate=\(b)"
        }
    }
}
