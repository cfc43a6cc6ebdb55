import Foundation
import ReelCore
import ReelGLib

/// Opens local files with GstDiscoverer (`MediaProbe`) on a thread of its own and tells the
/// sequencer what they contain, on the main loop (see `GaplessAdvisor`).
@MainActor
public final class DiscovererLayoutProber: StreamLayoutProbing {
    /// Seconds a file may take to open before it counts as not opening.
    let timeout: Double

    public init(timeout: Double = 5) {
        self.timeout = timeout
    }

    public func probe(_ jobs: [(id: QueueItem.ID, uri: String)],
                      completion: @escaping @Sendable @MainActor ([(id: QueueItem.ID, layout: StreamLayout?)]) -> Void) {
        let timeout = timeout
        Thread.detachNewThread {
            let found: [(id: QueueItem.ID, layout: StreamLayout?)] = jobs.map { job in
                let probe = MediaProbe.probe(job.uri, timeout: timeout)
                return (job.id, probe.error == nil ? StreamLayout(video: !probe.video.isEmpty, audio: !probe.audio.isEmpty) : nil)
            }
            MainQueue.shared.async { completion(found) }
        }
    }
}
