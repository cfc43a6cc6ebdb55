/// GStreamer 1.22 workaround, the decision part: what to do with a local item that has not
/// prerolled within the watchdog's time (ReelEngine's `PrerollWatchdog` feature runs it).
///
/// The bug: parsebin can swallow a demuxer's error posted while it is still setting the demuxer
/// up (qtdemux on a damaged file, about 1 run in 20, gst-launch-1.0 too), so the item neither
/// prerolls nor fails; and on a loaded machine playbin3 now and then never prerolls a *good*
/// file (no error, every streaming task paused; about 1 load in 150 with both cores busy; CI saw
/// it). A probe of the file on its own pipeline (GstDiscoverer) tells the two apart.
public enum PrerollVerdict: Sendable, Equatable {
    /// Start the item again on a fresh playbin3 (the stuck one is abandoned).
    case restart
    /// Give it another watchdog period (the file opens: it is only slow).
    case extend
    /// Fail the item (with the probe's error when it has one).
    case fail

    public static let maximumRestarts = 1
    public static let maximumExtensions = 5

    /// - Parameters:
    ///   - probeOpened: the probe opened the file.
    ///   - restarts, extensions: what the watchdog already did for this item.
    public static func decide(probeOpened: Bool, restarts: Int, extensions: Int) -> PrerollVerdict {
        guard probeOpened else { return .fail }
        if restarts < maximumRestarts { return .restart }
        if extensions < maximumExtensions { return .extend }
        return .fail
    }
}
