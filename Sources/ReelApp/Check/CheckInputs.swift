import Foundation
import ReelCore

/// Turns `reel check`'s arguments into the items to check: files and URLs as they are,
/// playlists expanded in place exactly as `reel play` expands them (`QueueBuilder`: relative
/// entries resolved, HLS kept as one stream, a network playlist may not name local files). A
/// playlist line that could not be read becomes a failed row naming the playlist and the line,
/// so that the report says what was lost as well as what played.
enum CheckInputs {
    struct Entry: Sendable {
        var input: String
        var title: String?
        /// The playlist entry's own options (headers, bucket…), for the gateway.
        var options: [String: [String]] = [:]
        /// An input of the command line or an entry of a playlist given there (credentials).
        var arrival: ItemArrival = .commandLine
        /// Set when the entry cannot be checked at all (an unreadable playlist or line).
        var error: PlaybackError?
        /// One rendition of an HLS master or a DASH MPD (`--renditions all`): what it declares of it.
        var variant: HLSVariant?
        /// A DASH rendition: the Representation's `@id`, played alone (the gateway serves the MPD
        /// without the others, `GatewayItem.representation`).
        var representation: String?
    }

    /// - Parameters:
    ///   - router: fetches network playlists with the credentials the rule gives them.
    ///   - renditions: every variant of an HLS master becomes an entry of its own, titled
    ///     "master · 720p" (`--renditions all`), checked and photographed at the same positions.
    static func expand(_ inputs: [String], router: GatewayRouter? = nil, renditions: Bool = false) -> [Entry] {
        inputs.flatMap { input -> [Entry] in
            let built = QueueBuilder.build([input], router: router)
            let entries = built.items.map { Entry(input: $0.uri, title: $0.title, options: $0.options, arrival: $0.arrival) }
                + built.errors.map { Entry(input: input, title: nil, error: $0) }
            return renditions ? entries.flatMap { variants(of: $0, router: router) } : entries
        }
    }

    /// The variants of an HLS master, or the video Representations of a DASH MPD, as entries
    /// (I-frame variants excluded); the entry itself when it has one rendition or none.
    static func variants(of entry: Entry, router: GatewayRouter?) -> [Entry] {
        let isDASH = DASHManifest.isDASH(entry.input)
        guard entry.error == nil, CheckRunner.isHLS(entry.input) || isDASH, let url = URL(string: MediaLocator.uri(for: entry.input)) else { return [entry] }
        let data: Data?
        if url.isFileURL {
            data = HLSStreamCheck.fetch(url, timeout: 10)
        } else if let router, case .data(let d, _) = router.fetchPlaylist(url, arrival: entry.arrival) {
            data = d
        } else {
            data = nil
        }
        if isDASH {
            let renditions = data.map { DASHManifest.videoRenditions(String(decoding: $0, as: UTF8.self)) } ?? []
            guard renditions.count > 1 else { return [entry] }
            let name = CaptureFileName.title(for: MediaLocator.uri(for: entry.input))
            return renditions.map { r in
                var e = Entry(input: entry.input, title: "\(name) · \(RenditionSelector.label(r))", options: entry.options, arrival: entry.arrival)
                e.variant = r
                e.representation = r.uri  // the Representation's @id
                return e
            }
        }
        guard let data, let parsed = try? HLSPlaylist.parseReporting(String(decoding: data, as: UTF8.self), url: url),
              let master = parsed.playlist.master, !master.variants.isEmpty else { return [entry] }
        let name = CaptureFileName.title(for: MediaLocator.uri(for: entry.input))
        return master.variants.compactMap { v in
            // A network master may name only network variants (never a local file).
            guard let variantURL = URIReference.resolve(v.uri, against: url), url.isFileURL || !variantURL.isFileURL else { return nil }
            let label = RenditionSelector.label(v)
            var e = Entry(input: variantURL.absoluteString, title: "\(name) · \(label)", options: entry.options, arrival: entry.arrival)
            e.variant = v
            return e
        }
    }
}
