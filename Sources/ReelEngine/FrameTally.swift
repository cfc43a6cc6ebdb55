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

    var counts: (rendered: Int, dropped: Int) {
        (carried.rendered + max(0, last.rendered - start.rendered), carried.dropped + max(0, last.dropped - start.dropped))
    }
}
