/// What is playing and the transport: what the queue (`PlaybackEngine`) and the player's own
/// features (ReelEngine's `FeatureHost`) both read and ask of an engine, declared once.
@MainActor
public protocol PlaybackTransport: AnyObject {
    /// The item the engine plays now (loaded or switched to), nil when idle: what is loaded is
    /// known by the item's id, never by comparing URIs.
    var currentItem: PlaybackItem? { get }
    /// What the engine plays now (the item's `playedURI`), nil when idle.
    var currentURI: String? { get }
    var mediaInfo: MediaInfo { get }
    /// Seconds into the current item, as users see them (a live item's: on its window's scale).
    var position: Double { get }

    func play()
    func pause()
    func seek(to time: Double, mode: SeekMode)
}
