/// What Reel says plays, from what the player fetches (issue 27): a rendition event names the
/// rendition whose media the demuxer asks for, never only the one Reel asked for. A decision
/// (a start, a manual choice, the adaptive rule's step) waits until the fetches show it, and
/// goes out with its reason then; a fetch that shows another rendition than the one pinned says
/// `unavailable`; a switch nobody decided (the demuxer's own) says `demuxer`. Pure; one per item
/// (the item is the URI the engine plays). For items whose fetches Reel does not see (not
/// through the gateway) the sequencer reports decisions as they are made.
public struct RenditionReport: Sendable, Equatable {
    /// The item the fetches are about (its queue id).
    public private(set) var item: String?
    /// The variant URI whose media was fetched last.
    public private(set) var fetchedURI: String?
    private var pending: Pending?
    /// The mode ("auto", "manual") the last statement went out in.
    private var saidMode: String?

    private struct Pending: Sendable, Equatable {
        var reason: String
        var target: Int?
        var mode: String
    }

    /// What to say: the rendition (index into the item's renditions) and why.
    public struct Statement: Sendable, Equatable {
        public var index: Int?
        public var reason: String
        public init(index: Int?, reason: String) { self.index = index; self.reason = reason }
    }

    public init() {}

    /// The rendition playing now, by the fetches, among `renditions`.
    public func playing(in renditions: [HLSVariant]) -> Int? {
        fetchedURI.flatMap { uri in renditions.firstIndex { $0.uri == uri } }
    }

    /// A decision for `item` (`target`: the rendition pinned, nil for none) in `mode`: said now
    /// when the fetches already show it, else when they do. A change of mode (the user chose
    /// auto) is said at once too, with the rendition still playing.
    public mutating func decided(item: String, target: Int?, reason: String, mode: String = "auto", renditions: [HLSVariant]) -> Statement? {
        if item != self.item { self = RenditionReport(); self.item = item }
        let playing = playing(in: renditions)
        if let playing, target == nil || target == playing {
            pending = nil
            saidMode = mode
            return Statement(index: playing, reason: reason)
        }
        pending = Pending(reason: reason, target: target, mode: mode)
        if let playing, let said = saidMode, said != mode {
            saidMode = mode
            return Statement(index: playing, reason: reason)
        }
        return nil
    }

    /// The player began fetching the media of the variant `uri` of `item`.
    /// `firstAtLowest`: the demuxer fetches its first fragment at the lowest rendition whatever
    /// was asked (dashdemux2 1.22): that fragment is said as the demuxer's, and the decision
    /// waits for the next.
    public mutating func fetched(item: String, uri: String, renditions: [HLSVariant], firstAtLowest: Bool = false) -> Statement? {
        if item != self.item { self = RenditionReport(); self.item = item }
        guard uri != fetchedURI else { return nil }
        let first = fetchedURI == nil
        fetchedURI = uri
        guard let index = playing(in: renditions) else { return nil }  // said when the renditions are known
        if first, firstAtLowest, let target = pending?.target, target != index,
           renditions.indices.min(by: { (renditions[$0].bandwidth ?? 0) < (renditions[$1].bandwidth ?? 0) }) == index {
            return Statement(index: index, reason: "demuxer")
        }
        // The first media fetched with nothing decided yet: the start decision will say it.
        guard let p = pending else { return first ? nil : Statement(index: index, reason: "demuxer") }
        pending = nil
        saidMode = p.mode
        return Statement(index: index, reason: p.target == nil || p.target == index ? p.reason : "unavailable")
    }
}
