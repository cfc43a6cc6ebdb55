import CGStreamer
import ReelCore

/// One pending `captureFrameWhenSettled`: completes once.
@MainActor
final class CaptureWaiter {
    private var completion: (@MainActor (Result<CapturedFrame, PlaybackError>) -> Void)?
    var observerID: Int?

    init(completion: @escaping @MainActor (Result<CapturedFrame, PlaybackError>) -> Void) { self.completion = completion }

    /// Completes if the player is settled (or failed); returns whether it completed.
    func check(_ player: Player) -> Bool {
        guard completion != nil else { return true }
        if case .failed(let e) = player.status { finish(.failure(e)); return true }
        guard player.currentURI != nil else { finish(.failure(PlaybackError(kind: .unknown, message: "Nothing is loaded."))); return true }
        guard player.isPrerolled, !player.isSeeking else { return false }
        finish(player.captureNow())
        return true
    }

    func finish(_ result: Result<CapturedFrame, PlaybackError>) {
        guard let c = completion else { return }
        completion = nil
        c(result)
    }
}

/// The timeout half of a `CaptureWaiter` (GLib user_data).
final class CaptureDeadline: @unchecked Sendable {
    weak var player: Player?
    let waiter: CaptureWaiter
    init(player: Player, waiter: CaptureWaiter) { self.player = player; self.waiter = waiter }

    @MainActor func fire() {
        if let id = waiter.observerID { player?.removeObserver(id) }
        waiter.finish(.failure(PlaybackError(kind: .timeout, message: "No settled frame to capture in time.", uri: player?.currentURI)))
    }
}
