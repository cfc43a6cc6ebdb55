import Foundation

/// One media playlist of a live item as the engine was given it (after Reel's edits): where its
/// segments sit on the wall clock, and how far from its edge playback should start. The gateway
/// takes one of every media playlist it serves; `LiveTimeline` reads positions against it.
public struct LiveWindowSnapshot: Sendable, Equatable {
    public var firstSequence: Int
    /// Each segment's duration, oldest first.
    public var durations: [Double]
    /// Each segment's wall-clock start (`#EXT-X-PROGRAM-DATE-TIME`, carried forward and back
    /// from the segments that have one); nil without any.
    public var dates: [Date?]
    public var targetDuration: Double
    /// `#EXT-X-SERVER-CONTROL:HOLD-BACK`.
    public var holdBack: Double?
    /// `#EXT-X-START:TIME-OFFSET` (negative: from the end).
    public var startTimeOffset: Double?
    /// The playlist is closed (`#EXT-X-ENDLIST`, as written or added for catchup).
    public var hasEndList: Bool
    /// When the gateway served it.
    public var receivedAt: Date
    /// The demuxer's stream time of the first segment when the manifest says it (a DASH window:
    /// dashdemux2 counts from `availabilityStartTime`, and its seekable range starts at
    /// now − `timeShiftBufferDepth`, between segments); nil: the seekable range's start (hlsdemux2).
    public var firstSegmentStreamTime: Double?

    public init(firstSequence: Int = 0, durations: [Double] = [], dates: [Date?] = [], targetDuration: Double = 0, holdBack: Double? = nil,
                startTimeOffset: Double? = nil, hasEndList: Bool = false, receivedAt: Date = Date()) {
        self.firstSequence = firstSequence
        self.durations = durations
        self.dates = dates
        self.targetDuration = targetDuration
        self.holdBack = holdBack
        self.startTimeOffset = startTimeOffset
        self.hasEndList = hasEndList
        self.receivedAt = receivedAt
    }

    /// The window's length: the sum of its segments.
    public var duration: Double { durations.reduce(0, +) }

    /// Whether any segment has a wall-clock time.
    public var hasDates: Bool { dates.contains { $0 != nil } }

    /// The rule that sets the distance from the edge to start at, and that distance: the
    /// playlist's `EXT-X-START`, else its `HOLD-BACK`, else three target durations (RFC 8216
    /// §4.4.3.8 and §6.3.3; what Media3 does), never more than the window.
    public var safeDistance: (rule: String, seconds: Double) {
        let window = duration
        if let offset = startTimeOffset {
            let fromEnd = offset < 0 ? -offset : window - offset
            return ("start", min(window, max(0, fromEnd)))
        }
        if let holdBack, holdBack > 0 { return ("hold-back", min(window, holdBack)) }
        return ("target-duration", min(window, 3 * targetDuration))
    }

    /// Seconds from the window's start to the start of segment `index`.
    public func offset(ofSegment index: Int) -> Double { durations.prefix(max(0, index)).reduce(0, +) }

    /// The segment that contains `seconds` from the window's start (the last one when beyond).
    public func segment(containing seconds: Double) -> Int { LivePlaylistEditor.containing(seconds, durations) }

    /// The wall-clock time at `seconds` from the window's start, from the segment holding it.
    public func date(at seconds: Double) -> Date? {
        guard !durations.isEmpty else { return nil }
        let i = segment(containing: max(0, seconds))
        guard let start = dates[i] else { return nil }
        return start.addingTimeInterval(seconds - offset(ofSegment: i))
    }

    /// Seconds from the window's start at which the wall clock reads `date` (clamped to the window).
    public func seconds(at date: Date) -> Double? {
        guard hasDates else { return nil }
        for i in durations.indices.reversed() {
            guard let start = dates[i] else { continue }
            if date >= start || i == 0 {
                return min(duration, max(0, offset(ofSegment: i) + date.timeIntervalSince(start)))
            }
        }
        return nil
    }
}
