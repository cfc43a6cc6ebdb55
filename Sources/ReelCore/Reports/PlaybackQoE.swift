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
    /// Seconds spent playing (not paused, seeking or stalled): the rebuffering ratio's basis.
    public var playSeconds = 0.0
    /// The bitrate of what played, weighted by how long each rendition played (bits/s; nil: no
    /// rendition known), and the top rendition's: the QoE monitors' "average bitrate".
    public var timeWeightedBitrate: Int?
    public var topBitrate: Int?

    public init() {}

    /// CTA-2066's and Conviva's rebuffering ratio: the time stalled over the time playing or
    /// stalled (startup not counted), in percent; nil before anything played.
    public var rebufferingPercent: Double? {
        let total = playSeconds + stallSeconds
        return total > 0 ? stallSeconds / total * 100 : nil
    }

    /// Dropped frames out of all the sink was given, in percent; nil when it was given none.
    public var droppedPercent: Double? {
        renderedFrames + droppedFrames > 0 ? Double(droppedFrames) / Double(renderedFrames + droppedFrames) * 100 : nil
    }

    /// The time-weighted bitrate against the top rendition's, in percent.
    public var bitratePercent: Double? {
        guard let b = timeWeightedBitrate, let top = topBitrate, top > 0 else { return nil }
        return Double(b) / Double(top) * 100
    }

    public var json: JSONValue {
        func round(_ v: Double?, _ scale: Double = 1000) -> JSONValue { .optional(v.map { ($0 * scale).rounded() / scale }) }
        return .object([("droppedFrames", .int(droppedFrames)), ("renderedFrames", .int(renderedFrames)), ("stalls", .int(stalls)),
                        ("stallSeconds", .double((stallSeconds * 1000).rounded() / 1000)),
                        ("startupSeconds", round(startupSeconds)),
                        ("renditionSwitches", .int(renditionSwitches)),
                        ("playSeconds", .double((playSeconds * 1000).rounded() / 1000)),
                        ("droppedPercent", round(droppedPercent, 100)), ("rebufferingPercent", round(rebufferingPercent, 100)),
                        ("timeWeightedBitrate", .optional(timeWeightedBitrate)), ("topBitrate", .optional(topBitrate)),
                        ("bitratePercent", round(bitratePercent, 100))])
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
    /// Since when it plays (nil: not playing), and the bitrate playing now.
    private var playingSince: Double?
    private var bitrate: Int?
    private var bitSeconds = 0.0
    private var bitrateSeconds = 0.0

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
        advance(to: time)
        if case .playing = status { playingSince = time } else { playingSince = nil }
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

    /// The rendition playing (nil: not known); a change after the first is a switch. With its
    /// bandwidth and the top one's, the time-weighted bitrate counts from `time` on.
    public mutating func rendition(_ index: Int?, bandwidth: Int? = nil, top: Int? = nil, at time: Double? = nil) {
        if let pinned = pinnedRendition, pinned != index { qoe.renditionSwitches += 1 }
        pinnedRendition = .some(index)
        if let time { advance(to: time) }
        bitrate = bandwidth
        if let top { qoe.topBitrate = top }
    }

    /// Counts the playing time (and the bitrate over it) up to `time`.
    private mutating func advance(to time: Double) {
        guard let since = playingSince else { return }
        let span = max(0, time - since)
        qoe.playSeconds += span
        if let bitrate {
            bitSeconds += Double(bitrate) * span
            bitrateSeconds += span
        }
        playingSince = time
    }

    /// The numbers now (a stall in progress counted up to `time`).
    public func snapshot(at time: Double) -> PlaybackQoE {
        var meter = self
        meter.advance(to: time)
        var q = meter.qoe
        if let since = stalledSince { q.stallSeconds += max(0, time - since) }
        if meter.bitrateSeconds > 0 { q.timeWeightedBitrate = Int((meter.bitSeconds / meter.bitrateSeconds).rounded()) }
        return q
    }
}
