/// What the adaptive demuxer playing now says of the network and the buffer, sampled by the
/// queue for `AdaptiveRule` (hlsdemux2's `current-level-time-video` and `current-bandwidth`).
public struct AdaptiveStats: Sendable, Equatable {
    /// Seconds of media buffered ahead in the demuxer.
    public var buffered: Double
    /// The demuxer's measured download rate (bit/s), nil before its first fragment.
    public var throughput: Int?
    /// Playing at rate 1 (the buffer's slope then says how fast media arrives).
    public var playing: Bool

    public init(buffered: Double, throughput: Int?, playing: Bool) {
        self.buffered = buffered
        self.throughput = throughput
        self.playing = playing
    }
}
