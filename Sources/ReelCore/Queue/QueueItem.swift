import Foundation

/// One entry of a play queue: what to play, how to show it, and how it went.
///
/// `id` is the item's identity: it is kept when the queue is reordered, shuffled or saved and
/// reloaded in the same session, so a UI row, a prepared gapless successor and an event can all
/// name the item without relying on its index.
///
/// `options` are per-entry settings from the playlist (see `PlaylistOptions` for the syntax),
/// e.g. `["header": ["Authorization: Bearer …"], "bucket": ["sports"]]`. Every name may repeat,
/// so values are lists, in file order. Values may be secret: never log them.
public struct QueueItem: Sendable, Equatable, Identifiable {
    public let id: UUID
    public var uri: String
    public var title: String?
    /// Seconds, when the playlist (or the player) knows it.
    public var duration: Double?
    public var options: [String: [String]]
    public var state: QueueItemState
    /// How the item reached the queue; credentials are bound to it (see `CredentialPolicy`).
    public var arrival: ItemArrival

    public init(id: UUID = UUID(), uri: String, title: String? = nil, duration: Double? = nil,
                options: [String: [String]] = [:], state: QueueItemState = .pending, arrival: ItemArrival = .commandLine) {
        self.id = id; self.arrival = arrival; self.uri = uri; self.title = title; self.duration = duration; self.options = options; self.state = state
    }

    /// The title, or a name made from the URI (file name, last path component, host).
    public var displayTitle: String {
        if let title, !title.isEmpty { return title }
        return MediaLocator.displayName(of: uri)
    }

    /// The last value of an option, or nil.
    public func option(_ name: String) -> String? { options[name]?.last }

    /// `header` options split into (name, value) pairs; malformed ones (no colon) are skipped.
    public var headers: [(String, String)] {
        (options[PlaylistOptions.header] ?? []).compactMap(PlaylistOptions.splitHeader)
    }
}
