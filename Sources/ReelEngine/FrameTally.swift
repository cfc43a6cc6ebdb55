/// An item's frames at the video sink, from basesink's `stats` (rendered, dropped), which restart
/// at every segment and flush: each reading lower than the last means a restart, and what was
/// counted before it is kept.
struct FrameTally {
    private var carried = (rendered: 0, dropped: 0)
    private var last = (rendered: 0, dropped: 0)
    /// The sink's totals when the item began (a gapless switch keeps the sink).
    private var start = (rendered: 0, dropped: 0)

    init(startingAt totals: (rendered: Int, dropped: Int) = (0, 0)) {
        start = totals
        last = totals
    }

    mutating func see(_ totals: (rendered: Int, dropped: Int)) {
        if totals.rendered < last.rendered || totals.dropped < last.dropped {
            carried = (carried.rendered + last.rendered - start.rendered, carried.dropped + last.dropped - start.dropped)
            start = (0, 0)
        }
        last = totals
    }

    /// The last totals seen: where the tally of the next item starts when the element is kept.
    var latest: (rendered: Int, dropped: Int) { last }

    var counts: (rendered: Int, dropped: Int) {
        (carried.rendered + max(0, last.rendered - start.rendered), carried.dropped + max(0, last.dropped - start.dropped))
    }
}

/// Frames skipped before the sink for lateness, per element (a video decoder's QoS: its QOS
/// messages carry its totals, processed and dropped, which restart when it resets). The sink
/// never sees these frames, so its `stats` cannot count them.
struct UpstreamFrameDrops {
    private var tallies: [UInt: FrameTally] = [:]

    mutating func see(element: UInt, processed: Int, dropped: Int) {
        tallies[element, default: FrameTally()].see((processed, dropped))
    }

    var dropped: Int { tallies.values.reduce(0) { $0 + $1.counts.dropped } }

    /// The next item's drops after a gapless switch: the elements it keeps count on from here.
    func handedOver() -> UpstreamFrameDrops {
        var next = UpstreamFrameDrops()
        next.tallies = tallies.mapValues { FrameTally(startingAt: $0.latest) }
        return next
    }
}
