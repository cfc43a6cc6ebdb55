import Foundation
import ReelCore
import Synchronization

/// A master without the variants whose media playlists do not answer (`HLSMasterFilter`): every
/// variant is asked for at once (`probe`: nil when it answers); one that fails is left out and
/// told (`told`: the router says so on stderr). Only what the routes would route is asked for:
/// http(s), and files for a local item only (a network master naming a FIFO would otherwise block
/// the check, and read a local file).
struct VariantAvailability: TextRepair {
    typealias Probe = @Sendable (URL, RepairContext) async -> PlaybackError?
    typealias Told = @Sendable (GatewayItemID, URL, PlaybackError) -> Void
    let probe: Probe
    let told: Told
    var name: String { "variant-check" }

    func repair(_ text: String, _ context: RepairContext) async throws -> String {
        guard text.contains("#EXT-X-STREAM-INF") else { return text }
        let variants = HLSMasterFilter.variantURLs(in: text, base: context.base)
            .filter { ["http", "https"].contains($0.scheme?.lowercased()) || context.item.url.isFileURL }
        guard variants.count > 1 else { return text }
        let probe = self.probe
        let failed = await withTaskGroup(of: (URL, PlaybackError?).self) { group -> [(URL, PlaybackError)] in
            for url in Set(variants) { group.addTask { (url, await probe(url, context)) } }
            var failed: [(URL, PlaybackError)] = []
            for await (url, error) in group { if let error { failed.append((url, error)) } }
            return failed
        }
        // A check the player's leaving cut short (`Transfers`) says nothing of the variants, and
        // nothing checked is kept for others.
        try Task.checkCancellation()
        guard !failed.isEmpty else { return text }
        for (url, error) in failed { told(context.id, url, error) }
        return HLSMasterFilter.removing(Set(failed.map(\.0)), from: text, base: context.base)
    }
}

/// One group's same-language renditions kept apart (`HLSRenditionLanguages`).
struct RenditionLanguageSeparation: TextRepair {
    var name: String { "rendition-languages" }
    func repair(_ text: String, _ context: RepairContext) async throws -> String {
        text.contains("#EXT-X-STREAM-INF") ? HLSRenditionLanguages.separating(text) : text
    }
}

/// A live item's media playlists edited by its programme (`LiveStream`: restart, catchup, the
/// start, the window's bound), closed with `#EXT-X-ENDLIST` once the event is over.
struct LiveWindowEdit: TextRepair {
    var name: String { "live-window" }
    func repair(_ text: String, _ context: RepairContext) async throws -> String {
        context.item.live.map { $0.serve(text, closing: context.item.appendsEndList()) } ?? text
    }
}

/// Each media playlist's segment times kept for bare packed audio's ID3 timestamps
/// (`PackedAudioTimestamps`); the text passes as it is.
struct PackedAudioTimes: TextRepair {
    let clock: PackedAudioClock
    var name: String { "packed-audio-times" }
    func repair(_ text: String, _ context: RepairContext) async throws -> String {
        clock.served(text, base: context.base, item: context.id, playlist: context.resource)
        return text
    }
}

/// Every fetchable URI of a playlist routed back through the gateway (`HLSPlaylistRewriter`), as
/// a resource of the item under this playlist; then the item's table forgets what no playlist
/// lists any more. Closes the playlist when the item says so (`GatewayItem.appendsEndList`).
struct PlaylistRoutes: TextRepair {
    let registry: GatewayRegistry
    let baseURL: String
    var name: String { "routes" }

    func repair(_ text: String, _ context: RepairContext) async throws -> String { rewrite(text, context) }

    func rewrite(_ text: String, _ context: RepairContext) -> String {
        let registry = self.registry, baseURL = self.baseURL, id = context.id, playlist = context.resource
        let listed = Mutex(0)
        let rewriter = HLSPlaylistRewriter(baseURL: context.base, appendEndList: context.item.appendsEndList(),
                                           allowsLocalFiles: context.item.url.isFileURL) { kind, url in
            guard let index = registry.resourceIndex(item: id, url: url, kind: kind, parent: playlist) else { return nil }
            listed.withLock { $0 += 1 }
            return baseURL + registry.path(item: id, resource: index, url: url)
        }
        let output = rewriter.rewrite(text).text
        registry.playlistRewritten(item: id, index: playlist, listing: listed.withLock { $0 })
        return output
    }
}
