import ReelCore
import Synchronization

/// Collects what a gateway reports through its error handler (from its threads).
final class GatewayErrorRecorder: Sendable {
    private let state = Mutex<[PlaybackError]>([])
    func append(_ error: PlaybackError) { state.withLock { $0.append(error) } }
    var errors: [PlaybackError] { state.withLock { $0 } }
}
