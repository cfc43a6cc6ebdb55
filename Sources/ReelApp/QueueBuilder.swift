import Foundation
import ReelCore

/// Turns command-line inputs into one queue: files and URLs as they are, playlists (local, or
/// fetched over HTTP) expanded in place, HLS playlists kept as one stream. Problems with a
/// playlist come back as errors naming the playlist and the line.
enum QueueBuilder {
    struct Result {
        var items: [QueueItem] = []
        var errors: [PlaybackError] = []
    }

    /// - Parameter expandNetworkPlaylists: false when protected-stream options are in force:
    ///   fetching the input here would send an upstream request without the item's headers, so a
    ///   network input is then a stream for the gateway, never a list.
    static func build(_ inputs: [String], expandNetworkPlaylists: Bool = true) -> Result {
        var result = Result()
        for input in inputs {
            let uri = MediaLocator.uri(for: input)
            guard PlaylistParser.looksLikePlaylist(input) else {
                result.items.append(QueueItem(uri: uri))
                continue
            }
            let parsed: PlaylistParseResult
            let name: String
            if let path = MediaLocator.localPath(of: uri) {
                guard FileManager.default.fileExists(atPath: path) else {
                    // A missing playlist is a missing item: the player reports it in the queue.
                    result.items.append(QueueItem(uri: uri))
                    continue
                }
                name = (path as NSString).lastPathComponent
                parsed = PlaylistParser.load(file: URL(fileURLWithPath: path))
            } else if expandNetworkPlaylists, MediaLocator.isNetwork(uri), let url = URL(string: uri) {
                name = MediaLocator.displayName(of: uri)
                switch PlaylistFetcher.fetch(url) {
                case .data(let data, let finalURL):
                    parsed = PlaylistParser.parse(data, location: finalURL)
                case .failed:
                    // Not fetchable now: let the player try it (and report the error) as a stream.
                    result.items.append(QueueItem(uri: uri))
                    continue
                }
                if parsed.format == .hls {
                    // The URL the user gave (not the redirect target) is the stream.
                    result.items.append(QueueItem(uri: uri))
                    continue
                }
            } else {
                result.items.append(QueueItem(uri: uri))
                continue
            }
            result.items += parsed.items
            result.errors += parsed.diagnostics.map { $0.error(playlist: name) }
        }
        return result
    }
}
