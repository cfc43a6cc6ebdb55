/// GStreamer 1.22 workaround, the decision part: an adaptive item whose buffering can never
/// complete fails with a clear error instead of waiting for ever.
///
/// adaptivedemux2's buffering percentage is its emptiest track's level over a threshold. When a
/// stream dies inside the demuxer without an error — dashdemux2 types a stream by its
/// `mimeType` alone, so the audio of GStreamer's own dashsink (`mimeType="video/mp2t"` or
/// `"video/mp4"` on an audio AdaptationSet) becomes a video track, its parsed audio is
/// "not-linked" and the stream stops — that track stays empty, the percentage stays where it is
/// (0 %), no download is pending, and playback waits in `buffering` for ever (gst-play-1.0 plays
/// the video and ends). Reel holds the pipeline paused below 100 % (`BufferingRule`), so it has
/// to say when waiting is pointless: the same percentage for `patience` seconds, with the user
/// wanting to play, is a stall (a network that slow moves it: 1 % is 0.03 s of media there). The
/// same race can leave the pipeline playing with the position standing still (the dead stream
/// keeps the others from their end): the position, watched the same way, is a stall too.
public struct StuckBuffering: Sendable, Equatable {
    /// Seconds the same value may last.
    public var patience: Double
    private var value: Double?
    private var since: Double?

    public init(patience: Double = 20) {
        self.patience = patience
    }

    /// Feeds the buffering state at `now` (seconds on any monotonic clock); true once the wait is
    /// pointless (the watch then resets). `percent`: nil when not buffering; `waiting`: the user
    /// wants to play and the item has prerolled.
    public mutating func observe(percent: Int?, waiting: Bool, now: Double) -> Bool {
        observe(value: percent.flatMap { $0 < 100 ? Double($0) : nil }, waiting: waiting, now: now)
    }

    /// The same for any value that should move: the position while playing (the pipeline plays,
    /// says nothing, and the position stays: the dead stream keeps the others from their end).
    public mutating func observe(value: Double?, waiting: Bool, now: Double) -> Bool {
        guard waiting, let value else {
            reset()
            return false
        }
        guard let last = self.value, abs(last - value) < 0.001, let since else {
            self.value = value
            since = now
            return false
        }
        guard now - since >= patience else { return false }
        reset()
        return true
    }

    public mutating func reset() {
        value = nil
        since = nil
    }
}
