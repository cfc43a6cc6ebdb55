import Foundation
import ReelCore
import Synchronization

/// The gateway's tables: items, and per item the upstream resources its gateway URLs stand for.
/// Gateway URLs carry only opaque numbers behind a per-gateway random key
/// (`/<key>/i/3/17/seg.ts`), never an upstream URL or a secret. The key keeps other local
/// processes from using the gateway (and the user's credentials) by guessing numbers; the
/// gateway also checks that a connection comes from Reel's own process (`LoopbackPeer`), so a
/// key seen in a log is of no use to another process.
final class GatewayRegistry: Sendable {
    /// 128 random bits, hex: the first path segment of every gateway URL.
    let key: String = (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()

    typealias Resource = ResourceTable.Resource

    private struct Entry {
        var item: GatewayItem
        /// A reference: registering a resource never copies the table.
        var table: ResourceTable
        /// The variant whose media was asked for last (see `variant(ofMedia:item:)`).
        var lastVariant: Int?
    }

    private struct State {
        var nextItem = 1
        var items: [Int: Entry] = [:]
    }

    private let state = Mutex(State())

    func register(_ item: GatewayItem) -> GatewayItemID {
        state.withLock { s in
            let id = s.nextItem
            s.nextItem += 1
            s.items[id] = Entry(item: item, table: ResourceTable(root: item.url))
            return GatewayItemID(rawValue: id)
        }
    }

    func unregister(_ id: GatewayItemID) { state.withLock { _ = $0.items.removeValue(forKey: id.rawValue) } }

    func item(_ id: GatewayItemID) -> GatewayItem? { state.withLock { $0.items[id.rawValue]?.item } }

    var itemCount: Int { state.withLock { $0.items.count } }

    /// How many upstream resources an item's table holds now (bounded; see `ResourceTable`).
    func resourceCount(_ id: GatewayItemID) -> Int? { state.withLock { $0.items[id.rawValue]?.table.count } }

    func resource(item: GatewayItemID, index: Int) -> (GatewayItem, Resource)? {
        state.withLock { s in
            guard let entry = s.items[item.rawValue], let resource = entry.table[index] else { return nil }
            return (entry.item, resource)
        }
    }

    /// The resource number for an upstream URL of the item, adding it when new.
    func resourceIndex(item: GatewayItemID, url: URL, kind: HLSURIKind?, parent: Int? = nil) -> Int? {
        state.withLock { s in s.items[item.rawValue]?.table.number(for: url, kind: kind, parent: parent) }
    }

    /// The variant (its resource number) whose media a request for resource `index` belongs
    /// to: the playlist that listed a segment, map or part; nil for anything else. Each time it
    /// differs from the last one seen for the item, `changed` is true (one report per switch).
    func variant(ofMedia index: Int, item: GatewayItemID) -> (variant: Int, url: URL, changed: Bool)? {
        state.withLock { s in
            guard let entry = s.items[item.rawValue], let resource = entry.table[index], resource.kind?.isMediaData == true,
                  let parent = resource.parent, let playlist = entry.table[parent], playlist.kind == .variant else { return nil }
            let changed = s.items[item.rawValue]?.lastVariant != parent
            s.items[item.rawValue]?.lastVariant = parent
            return (parent, playlist.url, changed)
        }
    }

    /// A playlist of the item (resource `index`) was rewritten listing `count` URIs: older
    /// resources beyond the table's bound are forgotten.
    func playlistRewritten(item: GatewayItemID, index: Int, listing count: Int) {
        state.withLock { s in s.items[item.rawValue]?.table.playlistRewritten(index, listing: count) }
    }

    /// The gateway path for a resource: `/<key>/i/<item>/<resource>/<last path component>`.
    func path(item: GatewayItemID, resource: Int, url: URL) -> String {
        var name = url.lastPathComponent
        if name.isEmpty || name == "/" { name = "index" }
        let safe = name.addingPercentEncoding(withAllowedCharacters: URIReference.unreserved) ?? "index"
        return "/\(key)/i/\(item.rawValue)/\(resource)/\(safe)"
    }

    /// The gateway prefix for an upstream directory (resource `resource`, a URL ending in `/`) of
    /// the item: `/<key>/d/<item>/<resource>/`; what follows it in a request is appended to the
    /// directory upstream (DASH: `DASHManifestRewriter`).
    func directoryPath(item: GatewayItemID, resource: Int) -> String { "/\(key)/d/\(item.rawValue)/\(resource)/" }

    /// Parses a directory path back into (item, directory resource, what follows, query included).
    func parseDirectory(path: String) -> (GatewayItemID, Int, String)? {
        let prefix = "/\(key)/d/"
        guard path.hasPrefix(prefix) else { return nil }
        let rest = path.dropFirst(prefix.count)
        let parts = rest.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, let item = Int(parts[0]), let resource = Int(parts[1]) else { return nil }
        return (GatewayItemID(rawValue: item), resource, String(parts[2]))
    }

    /// Parses a gateway path back into (item, resource); nil without the right key.
    func parse(path: String) -> (GatewayItemID, Int)? {
        guard let pathPart = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first else { return nil }
        let parts = pathPart.split(separator: "/")
        guard parts.count >= 4, parts[0] == key, parts[1] == "i", let item = Int(parts[2]), let resource = Int(parts[3]) else { return nil }
        return (GatewayItemID(rawValue: item), resource)
    }
}
