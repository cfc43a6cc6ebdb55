/// The user_data passed to GLib/GStreamer callbacks: a weak link back to the player, retained by
/// the callback registrations and released by their destroy notifies. Read on the main thread only.
final class CallbackBridge: @unchecked Sendable {
    weak var player: Player?
    let shared: StreamingShared
    init(player: Player, shared: StreamingShared) {
        self.player = player
        self.shared = shared
    }
}
