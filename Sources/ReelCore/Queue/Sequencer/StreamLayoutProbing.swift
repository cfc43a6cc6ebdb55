import Foundation

/// What kinds of streams a local file has (see `GaplessAdvisor`).
public struct StreamLayout: Sendable, Equatable {
    public var video: Bool
    public var audio: Bool

    public init(video: Bool, audio: Bool) { self.video = video; self.audio = audio }
}

/// Opens local files off the main thread and says what they contain (ReelEngine's
/// `DiscovererLayoutProber`, over GstDiscoverer); `completion` runs on the main actor, with nil
/// for a file that did not open.
@MainActor
public protocol StreamLayoutProbing: AnyObject {
    func probe(_ jobs: [(id: QueueItem.ID, uri: String)],
               completion: @escaping @Sendable @MainActor ([(id: QueueItem.ID, layout: StreamLayout?)]) -> Void)
}
