import Foundation
import ReelCore
import Synchronization

/// An MPD with a number out of bounds refused before anything reads it (`DASHManifestRewriter.check`).
struct ManifestBounds: TextRepair {
    var name: String { "mpd-bounds" }
    func repair(_ text: String, _ context: RepairContext) async throws -> String {
        try DASHManifestRewriter.check(text)
        return text
    }
}

/// A live item's server clock measured from its MPD's `UTCTiming` before the MPD is served
/// (`GatewayRequestHandler.measureClock`), so that its window is read on the server's time; the
/// text passes as it is.
struct ServerClock: TextRepair {
    typealias Measure = @Sendable (String, RepairContext, LiveStream) async -> Void
    let measure: Measure
    var name: String { "server-clock" }
    func repair(_ text: String, _ context: RepairContext) async throws -> String {
        if let live = context.item.live { await measure(text, context, live) }
        return text
    }
}

/// Everything an MPD resolves to routed back through the gateway (`DASHManifestRewriter`): its
/// upstream directories become resources of the item, and `Location` an item resource of its
/// own; a live item's window steered by its programme (`LiveStream.serveMPD`: the presentation
/// delay, catchup) on the server's clock, and only the item's Representation when it names one.
struct ManifestRoutes: TextRepair {
    let registry: GatewayRegistry
    let baseURL: String
    var name: String { "mpd-routes" }

    func repair(_ text: String, _ context: RepairContext) async throws -> String {
        let registry = self.registry, baseURL = self.baseURL, id = context.id, manifest = context.resource
        let steered = context.item.live?.serveMPD(text)
        let listed = Mutex(0)
        let output = try DASHManifestRewriter.rewrite(text, base: context.base, directory: { dir in
            guard let index = registry.resourceIndex(item: id, url: dir, kind: .other, parent: manifest) else { return nil }
            listed.withLock { $0 += 1 }
            return baseURL + registry.directoryPath(item: id, resource: index)
        }, manifest: { url in
            guard let index = registry.resourceIndex(item: id, url: url, kind: nil, parent: manifest) else { return nil }
            listed.withLock { $0 += 1 }
            return baseURL + registry.path(item: id, resource: index, url: url)
        }, presentationDelay: steered?.delay, catchup: steered?.catchup, representation: context.item.representation,
           clockOffset: context.item.live?.clockOffset)
        registry.playlistRewritten(item: id, index: manifest, listing: listed.withLock { $0 })
        return output
    }
}
