import Foundation
import ReelCore
import Synchronization

/// The gateway's tables: items, and per item the upstream resources its gateway URLs stand for.
/// Gateway URLs carry only opaque numbers behind a per-gateway random key
/// (`/<key>/i/3/17/seg.ts`), never an upstream URL or a secret. The key keeps other local
/// processes from using the gateway (and the user's credentials) by guessing numbers.
final class GatewayRegistry: Sendable {
    /// 128 random bits, hex: the first path segment of every gateway URL.
    let key: String = (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()

    struct Resource: Sendable {
        var url: URL
        var kind: HLSURIKind?
    }

    struct Entry {
        var item: GatewayItem
        var resources: [Resource]
        var index: [String: Int]
    }

    private let state = Mutex<(nextItem: Int, items: [Int: Entry])>((1, [:]))

    func register(_ item: GatewayItem) -> GatewayItemID {
        state.withLock { s in
            let id = s.nextItem
            s.nextItem += 1
            s.items[id] = Entry(item: item, resources: [Resource(url: item.url, kind: nil)], index: [item.url.absoluteString: 0])
            return GatewayItemID(rawValue: id)
        }
    }

    func unregister(_ id: GatewayItemID) { state.withLock { _ = $0.items.removeValue(forKey: id.rawValue) } }

    func item(_ id: GatewayItemID) -> GatewayItem? { state.withLock { $0.items[id.rawValue]?.item } }

    var itemCount: Int { state.withLock { $0.items.count } }

    func resource(item: GatewayItemID, index: Int) -> (GatewayItem, Resource)? {
        state.withLock { s in
            guard let entry = s.items[item.rawValue], entry.resources.indices.contains(index) else { return nil }
            return (entry.item, entry.resources[index])
        }
    }

    /// The resource number for an upstream URL of the item, adding it when new.
    func resourceIndex(item: GatewayItemID, url: URL, kind: HLSURIKind?) -> Int? {
        state.withLock { s in
            guard var entry = s.items[item.rawValue] else { return nil }
            let key = url.absoluteString
            if let existing = entry.index[key] { return existing }
            entry.resources.append(Resource(url: url, kind: kind))
            let index = entry.resources.count - 1
            entry.index[key] = index
            s.items[item.rawValue] = entry
            return index
        }
    }

    /// The gateway path for a resource: `/<key>/i/<item>/<resource>/<last path component>`.
    func path(item: GatewayItemID, resource: Int, url: URL) -> String {
        var name = url.lastPathComponent
        if name.isEmpty || name == "/" { name = "index" }
        let safe = name.addingPercentEncoding(withAllowedCharacters: URIReference.unreserved) ?? "index"
        return "/\(key)/i/\(item.rawValue)/\(resource)/\(safe)"
    }

    /// Parses a gateway path back into (item, resource); nil without the right key.
    func parse(path: String) -> (GatewayItemID, Int)? {
        guard let pathPart = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first else { return nil }
        let parts = pathPart.split(separator: "/")
        guard parts.count >= 4, parts[0] == key, parts[1] == "i", let item = Int(parts[2]), let resource = Int(parts[3]) else { return nil }
        return (GatewayItemID(rawValue: item), resource)
    }
}
