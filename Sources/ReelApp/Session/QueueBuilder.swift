import Foundation
import ReelCore
import ReelGateway

/// Turns inputs into queue items, the same way for every arrival (command line, control socket,
/// MPRIS, window): files and URLs as they are, playlists (local, or fetched over HTTP) expanded in
/// place, HLS playlists kept as one stream. Problems with a playlist come back as errors naming
/// the playlist and the line. Fetches block: call it from the command line at start-up or from a
/// background thread (`QueueIntake`), never from the UI thread.
enum QueueBuilder {
    struct Result {
        var items: [QueueItem] = []
        var errors: [PlaybackError] = []
        /// A local M3U's first entries only were read (`firstEntries`): the list has more.
        var moreEntries = false
    }

    /// - Parameters:
    ///   - arrival: how the inputs arrived; entries of their playlists are `.playlist` when the
    ///     inputs came from the command line, `.control` otherwise (see `CredentialPolicy`).
    ///   - router: fetches a network playlist with the credentials the rule gives it (through the
    ///     gateway); without one, playlists are fetched plainly.
    ///   - options: per-item options for the inputs that are not playlists (a socket `load` with
    ///     its own headers).
    ///   - firstEntries: read only this many entries of a local M3U (`QueueTail`).
    static func build(_ inputs: [String], arrival: ItemArrival = .commandLine, router: GatewayRouter? = nil,
                      options: [String: [String]] = [:], firstEntries: Int? = nil) -> Result {
        var result = Result()
        let entryArrival: ItemArrival = arrival == .control ? .control : .playlist
        // The inputs' own options (a socket `load` with its own headers): checked where they
        // came in (IPCRequest), so a bad one here is simply none.
        let entry = (try? ProtectedEntryOptions(options: options)) ?? ProtectedEntryOptions()
        for input in inputs {
            let uri = MediaLocator.uri(for: input)
            let asItem = QueueItem(uri: uri, options: options, arrival: arrival)
            // A folder is its media files (`MediaFolder`); one with none stays an item, which
            // fails saying it is a folder.
            if let path = MediaLocator.localPath(of: uri), LocalFileFacts(path: path).kind == .directory {
                let files = MediaFolder.files(in: path)
                if files.isEmpty { result.items.append(asItem) } else {
                    result.items += files.map { QueueItem(uri: MediaLocator.uri(for: $0), options: options, arrival: arrival) }
                }
                continue
            }
            guard PlaylistParser.looksLikePlaylist(input) else {
                result.items.append(asItem)
                continue
            }
            let parsed: PlaylistParseResult
            let name: String
            if let path = MediaLocator.localPath(of: uri) {
                guard FileManager.default.fileExists(atPath: path) else {
                    // A missing playlist is a missing item: the player reports it in the queue.
                    result.items.append(asItem)
                    continue
                }
                name = (path as NSString).lastPathComponent
                parsed = PlaylistParser.load(file: URL(fileURLWithPath: path), firstEntries: firstEntries)
                result.moreEntries = result.moreEntries || parsed.moreEntries
            } else if MediaLocator.isNetwork(uri), let url = URL(string: uri), !(router?.isProtectedStream(uri, arrival: arrival, entry: entry) ?? false),
                      !(router?.isTimeShifted(options: options, arrival: arrival) ?? false) {
                name = MediaLocator.displayName(of: uri)
                let fetched = router?.fetchPlaylist(url, arrival: arrival, entry: entry) ?? PlaylistDownload.fetchBlocking(url)
                switch fetched {
                case .data(let data, let finalURL):
                    parsed = PlaylistParser.parse(data, location: finalURL)
                case .failed:
                    // Not fetchable now: the player tries it and reports the error as the item's.
                    result.items.append(asItem)
                    continue
                case .timedOut(let why):
                    result.errors.append(PlaybackError(kind: .timeout, message: String(format: tr("The playlist %@ was not read: %@."), "\(Redactor.redactURL(uri))", "\(why)"),
                                                       uri: Redactor.redactURL(uri)))
                    continue
                case .tooLarge(let why):
                    result.errors.append(PlaybackError(kind: .invalidPlaylist, message: String(format: tr("The playlist %@ was not read: %@."), "\(Redactor.redactURL(uri))", "\(why)"),
                                                       uri: Redactor.redactURL(uri)))
                    continue
                }
                if parsed.format == .hls {
                    // The URL the user gave (not the redirect target) is the stream; what was
                    // fetched answers its first request (one fetch of a master at start).
                    if case .data(let data, let finalURL) = fetched { router?.remember(prefetched: data, url: uri, finalURL: finalURL) }
                    result.items.append(asItem)
                    continue
                }
            } else {
                result.items.append(asItem)
                continue
            }
            result.items += parsed.items.map { var item = $0; item.arrival = entryArrival; return item }
            result.errors += parsed.diagnostics.map { $0.error(playlist: name) }
        }
        return result
    }

    /// Whether building `inputs` would fetch anything over the network (then it must not run on
    /// the UI thread).
    static func needsNetwork(_ inputs: [String]) -> Bool {
        inputs.contains { PlaylistParser.looksLikePlaylist($0) && MediaLocator.isNetwork(MediaLocator.uri(for: $0)) }
    }
}
