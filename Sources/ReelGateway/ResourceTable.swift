import Foundation
import ReelCore

/// One item's upstream resources, by the numbers that stand for them in gateway URLs.
///
/// Costs O(1) per registration (amortised) and stays bounded: a live stream whose segment URLs
/// change on every refresh (signed URLs) would otherwise grow it forever. After each playlist
/// rewrite the table keeps the resources most recently referenced, at least twice as many as the
/// item's playlists currently list (so that what the player may still ask for stays) plus a margin;
/// older ones are forgotten (their gateway URLs answer 404). Resource 0, the item's own URL, is
/// never forgotten. Not thread-safe: `GatewayRegistry` guards it.
final class ResourceTable {
    struct Resource: Sendable {
        var url: URL
        var kind: HLSURIKind?
        /// The playlist (resource number) that last listed it: for a segment, its variant.
        var parent: Int?
    }

    /// Resources kept beyond twice what the current playlists list.
    static let margin = 256

    private var resources: [Int: Resource] = [:]
    private var numbers: [String: Int] = [:]
    /// When each resource was last referenced (a counter, not a clock).
    private var lastUse: [Int: Int] = [:]
    /// (resource, stamp) in the order of use; entries whose stamp is no longer the resource's
    /// last use are stale and skipped (lazy deletion keeps `touch` O(1)).
    private var order: [(number: Int, stamp: Int)] = []
    private var orderStart = 0
    private var nextNumber = 0
    private var clock = 0
    /// URIs each playlist (by resource number) listed when it was last rewritten.
    private var listed: [Int: Int] = [:]

    init(root: URL) {
        _ = number(for: root, kind: nil)
    }

    var count: Int { resources.count }

    /// How many resources the table keeps after a rewrite.
    var capacity: Int { 2 * listed.values.reduce(0, +) + Self.margin }

    subscript(number: Int) -> Resource? { resources[number] }

    /// The number for `url`, registering it when new; either way it counts as just used.
    func number(for url: URL, kind: HLSURIKind?, parent: Int? = nil) -> Int {
        let key = url.absoluteString
        let n: Int
        if let existing = numbers[key] {
            n = existing
            if let parent { resources[n]?.parent = parent }
        } else {
            n = nextNumber
            nextNumber += 1
            resources[n] = Resource(url: url, kind: kind, parent: parent)
            numbers[key] = n
        }
        touch(n)
        return n
    }

    /// Records that the playlist `number` listed `count` URIs, then forgets the least recently
    /// used resources beyond `capacity`.
    func playlistRewritten(_ number: Int, listing count: Int) {
        listed[number] = count
        trim()
    }

    private func touch(_ n: Int) {
        clock += 1
        lastUse[n] = clock
        order.append((n, clock))
    }

    private func trim() {
        let limit = capacity
        while resources.count > limit, orderStart < order.count {
            let (n, stamp) = order[orderStart]
            orderStart += 1
            guard n != 0, lastUse[n] == stamp, let gone = resources.removeValue(forKey: n) else { continue }
            numbers.removeValue(forKey: gone.url.absoluteString)
            lastUse.removeValue(forKey: n)
            listed.removeValue(forKey: n)
        }
        // Drop the consumed and stale part of `order` once it outweighs the live part.
        if orderStart > 0, order.count > 2 * resources.count + Self.margin {
            order = order[orderStart...].filter { lastUse[$0.number] == $0.stamp }
            orderStart = 0
        }
    }
}
