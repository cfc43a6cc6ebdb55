/// Keeps the last measured download rate between runs, so that an adaptive stream starts with a
/// rendition the network carried last time (as Clapper remembers it) instead of the first listed.
/// ReelApp keeps it in `$XDG_STATE_HOME/reel/throughput`; tests give their own.
@MainActor
public protocol ThroughputMemory: AnyObject {
    /// bit/s, nil when nothing was measured yet.
    func recall() -> Int?
    func remember(_ bitsPerSecond: Int)
}
