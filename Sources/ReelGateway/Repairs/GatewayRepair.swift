import Foundation
import NIOHTTP1
import ReelCore

/// What a repair knows of the answer it repairs: whose it is, what was asked, where it came from.
struct RepairContext: Sendable {
    var item: GatewayItem
    var id: GatewayItemID
    /// The item's resource the answer is (a playlist's or a manifest's own number).
    var resource: Int
    /// The URL that answered (after redirects): relative URIs resolve against it.
    var base: URL
    /// The request from playbin3 the answer is for.
    var request: HTTPRequestHead
    /// The URL as the item's playlist listed it (before redirects).
    var listed: URL

    init(item: GatewayItem, id: GatewayItemID, resource: Int, base: URL,
         request: HTTPRequestHead = HTTPRequestHead(version: .http1_1, method: .GET, uri: "/")) {
        self.item = item
        self.id = id
        self.resource = resource
        self.base = base
        self.request = request
        listed = base
    }
}

/// One repair the gateway makes to a whole text answer (an HLS playlist, a DASH MPD) before
/// playbin3 reads it, as VLC's `HLSStream::checkBlock`: text in, text out. A repair leaves what
/// it does not concern as it is; one that refuses the answer throws (the answer becomes a 502).
/// The chains, in order, are `GatewayRepairs`; `relay` only streams.
protocol TextRepair: Sendable {
    /// Its name in the debug log (`REEL_DEBUG=gateway`, `GST_DEBUG=reel-gateway:5`).
    var name: String { get }
    func repair(_ text: String, _ context: RepairContext) async throws -> String
}

/// A repair of a media answer's bytes: the whole body (`wholeBody`, when it is within the
/// playlist bound; larger ones pass as they are) or its first chunk; nil leaves them as they are.
/// The relay fixes the `Content-Length` by the difference.
protocol MediaRepair: Sendable {
    var name: String { get }
    var wholeBody: Bool { get }
    /// Whether it looks at this answer (a 200 to a GET, its Content-Type lowercased).
    func applies(to context: RepairContext, kind: HLSURIKind?, contentType: String) -> Bool
    func repair(_ bytes: [UInt8], _ context: RepairContext) -> [UInt8]?
}

/// Text repairs applied in turn, each leaving a debug line when it changed the text.
struct TextRepairChain: Sendable {
    var repairs: [any TextRepair]

    func apply(_ text: String, _ context: RepairContext) async throws -> String {
        var text = text
        for repair in repairs {
            let before = text
            text = try await repair.repair(text, context)
            if Log.isOn(.gateway, .debug), text != before {
                Log.debug(.gateway, .debug, "\(context.id)/\(context.resource): \(repair.name): \(before.utf8.count) → \(text.utf8.count) bytes")
            }
        }
        return text
    }
}

/// The gateway's repairs, in the order they apply.
struct GatewayRepairs: Sendable {
    /// An HLS master as fetched, before it is kept for later readers (`MasterCache`).
    var fetchedMaster: TextRepairChain
    /// Every HLS playlist as served (a kept master too).
    var servedPlaylist: TextRepairChain
    /// A DASH MPD as served.
    var manifest: TextRepairChain
    /// Media answers, the first that applies.
    var media: [any MediaRepair]
}
