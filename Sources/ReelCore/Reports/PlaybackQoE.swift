import Foundation

/// How an item played, the numbers a QA run asserts on: frames the video sink dropped (late, by
/// its QoS) out of those it was given, stalls after playback started (how many, how long),
/// startup time (load to the first frame) and rendition switches. `QoEMeter` counts them from
/// the events of one item; the socket's `qoe` property and `reel check`'s report show them.
public struct PlaybackQoE: Equatable, Sendable {
    public var droppedFrames = 0
    public var renderedFrames = 0
    public var stalls = 0
    public var stallSeconds = 0.0
    /// Seconds from the load to the first frame (nil until then).
    public var startupSeconds: Double?
    public var renditionSwitches = 0

    public init() {}

    public var json: JSONValue {
        .object([("droppedFrames", .int(droppedFrames)), ("renderedFrames", .int(renderedFrames)), ("stalls", .int(stalls)),
                 ("stallSeconds", .double((stallSeconds * 1000).rounded() / 1000)),
                 ("startupSeconds", .optional(startupSeconds.map { ($0 * 1000).rounded() / 1000 })),
                 ("renditionSwitches", .int(renditionSwitches))])
    }
}

/// Counts `PlaybackQoE` for the current item from what happens to it (times in seconds on any
/// monotonic clock); the frame counts are the engine's (`Player.videoFrameCounts`). A stall is a wait for buffering (or the network) after the item first
/// played; seeks and pauses are not stalls.
public struct QoEMeter: Sendable {
    public private(set) var qoe = PlaybackQoE()
    private var loadedAt: Double?
    private var played = false
    private var stalledSince: Double?
    private var pinnedRendition: Int??

    public init() {}

    /// A new item was loaded at `time`: everything starts again.
    public mutating func loaded(at time: Double) {
        self = QoEMeter()
        loadedAt = time
    }

    /// The item's first frame is ready (prerolled).
    public mutating func firstFrame(at time: Double) {
        guard qoe.startupSeconds == nil, let loadedAt else { return }
        qoe.startupSeconds = max(0, time - loadedAt)
    }

    /// The time control changed.
    public mutating func timeControl(_ status: TimeControlStatus, at time: Double) {
        switch status {
        case .playing:
            played = true
            if let since = stalledSince {
                qoe.stallSeconds += max(0, time - since)
                stalledSince = nil
            }
        case .waitingToPlayAtSpecifiedRate(.buffering(_)), .waitingToPlayAtSpecifiedRate(.noNetwork):
            guard played, stalledSince == nil else { return }
            qoe.stalls += 1
            stalledSince = time
        default:
            // Paused or seeking: a stall in progress ends here (its time so far counts).
            if let since = stalledSince {
                qoe.stallSeconds += max(0, time - since)
                stalledSince = nil
            }
        }
    }

    /// The rendition playing (nil: not known); a change after the first is a switch.
    public mutating func rendition(_ index: Int?) {
        if let pinned = pinnedRendition, pinned != index { qoe.renditionSwitches += 1 }
        pinnedRendition = .some(index)
    }

    /// The numbers now (a stall in progress counted up to `time`).
    public func snapshot(at time: Double) -> PlaybackQoE {
        var q = qoe
        if let since = stalledSince { q.stallSeconds += max(0, time - since) }
        return q
    }
}
