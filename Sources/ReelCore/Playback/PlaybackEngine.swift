/// What the queue needs of an engine: load items, prepare the next for a gapless switch, the
/// transport, and events that say which item they are about. ReelEngine's `Player` is the real
/// one (playbin3); `FakeEngine` in ReelTestSupport is a scripted one, so that queue rules are
/// tested in milliseconds, in addition to the real-pipeline tests.
@MainActor
public protocol PlaybackEngine: PlaybackTransport {
    var status: ItemStatus { get }
    /// The item played to its end (it then waits, as `endAction` says).
    var isAtEnd: Bool { get }
    var endAction: EndAction { get set }
    /// Hold the item for the network (time control `waiting`, reason noNetwork); see `NetworkRule`.
    var isWaitingForNetwork: Bool { get set }
    /// A cap on adaptive streams' bitrate (bits/s), nil for none.
    var bitrateCap: Int? { get set }
    /// A floor on adaptive streams' bitrate (a pinned rendition), nil for none.
    var bitrateFloor: Int? { get set }
    /// The most an adaptive demuxer buffers ahead (seconds), nil for its own target (30 s in
    /// hlsdemux2): `AdaptiveRule`'s probe lowers it at a start.
    var bufferingLimit: Double? { get set }
    /// The adaptive demuxer's buffer and throughput, nil when the item is not adaptive.
    var adaptiveStats: AdaptiveStats? { get }
    /// A gapless switch could not carry the current item's track choice (one of its own, or
    /// language preferences with something to choose): the next item is loaded at the end
    /// instead (changes are announced with a `.tracks` event).
    var trackChoiceNeedsLoad: Bool { get }

    func load(_ item: PlaybackItem)
    func unload()
    /// The item to switch to without a gap at the current item's end; nil cancels.
    func prepareNext(item: PlaybackItem?)
    func toggle()

    /// Every later event, with the item it was emitted for (its id, and which attempt).
    @discardableResult
    func addItemObserver(_ observer: @escaping @MainActor (PlayerEvent, PlaybackItem?) -> Void) -> Int
    func removeItemObserver(_ id: Int)
}

extension PlaybackEngine {
    /// An engine without tracks to choose has no choice to carry.
    public var trackChoiceNeedsLoad: Bool { false }
}
