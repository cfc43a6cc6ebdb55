import Foundation

/// Which next item is handed to playbin3's about-to-finish for a switch without a gap, and which
/// next items are loaded at the end instead. Pure: the sequencer keeps one, feeds it probe
/// results and asks it after every change of the queue or the current item.
///
/// Not switched gaplessly (loaded at the end instead):
/// - items with per-entry headers on either side: the HTTP source's headers cannot change inside a
///   gapless switch;
/// - a local next item that does not open, or whose kinds of streams differ from the current
///   item's. playbin3 in 1.22 handles those badly inside a switch: a next item that fails to open
///   ends the current one early (its error arrives while the current still plays), and a switch
///   from audio+video to audio only stops at the end with no EOS (the end-stall watchdog then
///   abandons that pipeline).
/// - an HLS next item (`.m3u8`): its streams are unknown until its playlists are read, and a
///   switch into an HLS stream with other streams than the current item's (video only to audio
///   and video) stalls playbin3 1.22 now and then, playing with no progress and no EOS.
/// - any next item while a switch could not carry the current item's track choice
///   (`PlaybackEngine.trackChoiceNeedsLoad`: an audio language or subtitles the user or the
///   preferences chose): playbin3 1.22 takes no select-streams for the item a switch goes to, so
///   the choice would be lost; a load makes it again (the previous item's languages).
/// Local items are probed first (`StreamLayoutProbing`, off the main thread); a network current
/// item's layout is read from the engine once it is ready (no extra request to its server).
public struct GaplessAdvisor: Sendable {
    public enum Advice: Equatable, Sendable {
        /// Hand this item to the engine's `prepareNext`.
        case prepare(QueueItem.ID)
        /// Nothing is switched gaplessly (for now): clear the engine's next item.
        case none
        /// Nothing yet: probe these local items (possibly none while probes run), then ask again.
        case probe([QueueItem.ID])
    }

    /// What each probed item contains; a nil value: the probe failed (the file does not open).
    public private(set) var layouts: [QueueItem.ID: StreamLayout?] = [:]
    /// Items being probed now.
    public private(set) var probing: Set<QueueItem.ID> = []
    /// The engine's `trackChoiceNeedsLoad` when the switch was last decided: a `.tracks` event
    /// that changes it decides again.
    public var trackChoiceNeededLoad = false

    public init() {}

    /// - Parameters:
    ///   - engineLayout: the current item's layout as the engine found it, nil while it is not
    ///     ready (used for a network current item only).
    ///   - trackChoiceNeedsLoad: a switch could not carry the current item's track choice.
    public func advise(enabled: Bool, current: QueueItem?, next: QueueItem?, engineLayout: StreamLayout?,
                       trackChoiceNeedsLoad: Bool = false) -> Advice {
        guard enabled, !trackChoiceNeedsLoad, let current, let next, current.headers.isEmpty, next.headers.isEmpty, !Self.isHLS(next),
              current.options["audio-url"] == nil, next.options["audio-url"] == nil else { return .none }  // a separate audio: a load of its own
        guard Self.isLocal(next) else { return .prepare(next.id) }
        var unprobed = [next]
        let currentLayout: StreamLayout??
        if Self.isLocal(current) {
            currentLayout = layouts[current.id]
            unprobed.insert(current, at: 0)
        } else {
            currentLayout = engineLayout.map { .some($0) }
        }
        switch (currentLayout, layouts[next.id]) {
        case (.some(let a), .some(let b)) where a != nil && a == b:
            return .prepare(next.id)
        case (.some, .some):
            return .none
        default:
            // Unknown yet: a network current item's readiness asks again, so do finished probes.
            return .probe(unprobed.filter { layouts[$0.id] == nil && !probing.contains($0.id) && Self.isLocal($0) }.map(\.id))
        }
    }

    /// An HLS stream by its name (`.m3u8`, local or network).
    public static func isHLS(_ item: QueueItem) -> Bool {
        URL(string: MediaLocator.uri(for: item.uri))?.pathExtension.lowercased() == "m3u8"
    }

    /// A path or a file:// URI.
    public static func isLocal(_ item: QueueItem) -> Bool { MediaLocator.localPath(of: MediaLocator.uri(for: item.uri)) != nil }

    public mutating func probeStarted(_ ids: [QueueItem.ID]) { probing.formUnion(ids) }

    /// A probe's result, kept only for an item still in the queue.
    public mutating func probed(_ id: QueueItem.ID, layout: StreamLayout?, stillQueued: Bool) {
        probing.remove(id)
        if stillQueued { layouts[id] = .some(layout) }
    }

    public mutating func forget(_ id: QueueItem.ID) { layouts[id] = nil }
    public mutating func forgetAll() { layouts.removeAll() }
}
