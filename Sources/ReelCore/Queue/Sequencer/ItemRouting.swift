/// How the sequencer turns a queue item into what the engine plays, and the engine's events back
/// into what the user should read: ReelApp's `GatewayRouter` routes protected network items
/// through the loopback gateway (and names the item's own URL and the gateway's account of a
/// refusal in events). Without one, every item plays as it is.
@MainActor
public protocol ItemRouting: AnyObject {
    /// The URI the engine gets for `item` (registered once per item by the sequencer).
    func playedURI(for item: QueueItem) throws(ProtectedEntryOptions.OptionError) -> String
    /// The event as the user should read it, `uri` being what the engine plays.
    func refine(_ event: PlayerEvent, uri: String?) -> PlayerEvent
    /// The item left the queue: what was registered for `playedURI` goes too.
    func release(_ playedURI: String)
    /// Whether the player's fetches of this item are seen (`QueueSequencer.renditionFetched` is
    /// called as its variants' media are asked for): then rendition events follow the fetches.
    func reportsFetchedRenditions(for playedURI: String) -> Bool
    /// Whether the demuxer fetches the item's first video fragment at its lowest rendition
    /// whatever Reel asked (dashdemux2 1.22, `RenditionReport`).
    func fetchesFirstAtLowest(for playedURI: String) -> Bool
    /// Whether the item, refused by the engine because its first bytes are this manifest and it
    /// did not come through the gateway (`PlaybackError.refusedContent`), can be routed there.
    func canRoute(_ content: SniffedContent, for item: QueueItem) -> Bool
    /// Routes the item as that manifest from now on (its next `playedURI`).
    func routeByContent(_ content: SniffedContent, for item: QueueItem)
}

public extension ItemRouting {
    func reportsFetchedRenditions(for playedURI: String) -> Bool { false }
    func fetchesFirstAtLowest(for playedURI: String) -> Bool { false }
    func canRoute(_ content: SniffedContent, for item: QueueItem) -> Bool { false }
    func routeByContent(_ content: SniffedContent, for item: QueueItem) {}
}
