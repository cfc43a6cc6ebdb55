import Foundation
import ReelCore

/// Builds the session's queue from the command line, the same way for headless and windowed
/// sessions: inputs expanded (QueueBuilder), `--start`, `--shuffle`, `--loop`, `--save-playlist`.
enum QueuePreparation {
    struct Prepared {
        var queue: PlayQueue
        /// Problems reading playlists (each names the playlist and the line).
        var errors: [PlaybackError]
        /// The rest of a big playlist, to read while its first entries play (`QueueTail`).
        var tail: QueueTail?
    }

    /// The prepared queue, or an exit status when the options cannot be honoured (reason on stderr).
    static func prepare(_ options: PlaybackOptions, router: GatewayRouter) -> Result<Prepared, ExitStatus> {
        // A big list's first entries play while the rest is read (`QueueTail`), unless the whole
        // list is wanted before the start: a start index, shuffle, saving it.
        let streams = options.inputs.count == 1 && options.startIndex == nil && !options.shuffle && options.savePlaylist == nil
        var built = QueueBuilder.build(options.inputs, arrival: .commandLine, router: router, firstEntries: streams ? QueueTail.firstEntries : nil)
        var tail: QueueTail?
        if built.moreEntries {
            tail = QueueTail(inputs: options.inputs, router: router, head: built.items.count)
            built.errors = []  // the whole list's read says them all, in order
        }
        var autoloadedIndex: Int?
        if options.autoload, options.inputs.count == 1, options.startIndex == nil, built.items.count == 1,
           let path = MediaLocator.localPath(of: built.items[0].uri), LocalFileFacts(path: path).kind == .regular,
           !PlaylistParser.looksLikePlaylist(options.inputs[0]), let siblings = MediaFolder.siblings(of: path) {
            // mpv's autoload: one file opened plays among its folder's, from itself.
            built.items = siblings.files.map { QueueItem(uri: MediaLocator.uri(for: $0), arrival: .commandLine) }
            autoloadedIndex = siblings.index
            Log.debug(.queue, .info, "autoload: \(siblings.files.count) files beside \((path as NSString).lastPathComponent)")
        }
        var queue = PlayQueue(built.items, repeatMode: options.repeatMode)
        if let autoloadedIndex { queue.jump(to: autoloadedIndex) }
        if let start = options.startIndex {
            guard queue.items.indices.contains(start) else {
                Diagnostics.say(String(format: tr("--start=%d: the queue has %d item(s)"), start, queue.count))
                return .failure(ExitStatus(code: 2))
            }
            queue.jump(to: start)
        }
        if options.shuffle {
            queue.setShuffle(true)
            if queue.currentID == nil { queue.jump(to: 0) }
        }
        if let file = options.savePlaylist, !save(queue.items, to: file) { return .failure(ExitStatus(code: 2)) }
        return .success(Prepared(queue: queue, errors: built.errors, tail: tail))
    }

    /// Writes the queue as M3U8 or XSPF (by extension); owner-only when options hold secrets.
    static func save(_ items: [QueueItem], to file: String) -> Bool {
        guard let format = PlaylistWriter.Format(fileName: file) else {
            Diagnostics.say(tr("--save-playlist: use a .m3u8 or .xspf file name"))
            return false
        }
        let url = URL(fileURLWithPath: (file as NSString).expandingTildeInPath).standardizedFileURL
        let text = PlaylistWriter.write(items, format: format, directory: url.deletingLastPathComponent())
        let secret = PlaylistWriter.containsSecrets(items)
        do { try PrivateFile.write(Data(text.utf8), to: url.path, mode: secret ? 0o600 : 0o644) } catch {
            Diagnostics.say(String(format: tr("--save-playlist: cannot write %@"), "\(error)"))
            return false
        }
        return true
    }
}

/// The rest of a big playlist given on the command line (issue 51): the queue starts with the
/// list's first `firstEntries` entries and the session reads the whole list on a background thread,
/// appending what follows them (`QueueSequencer.appendTail`), so that the first item plays at once
/// however long the list is. The whole list's problems are said then, each once.
struct QueueTail: Sendable {
    /// How many entries the queue starts with: enough that the rest (100,000 entries read in
    /// about a second) comes long before they are played, few enough to read in milliseconds.
    static let firstEntries = 500
    /// The rest is appended this many entries a main-loop turn.
    static let slice = 5_000
    let inputs: [String]
    let router: GatewayRouter
    /// How many entries the queue has already.
    let head: Int

    /// Reads the whole list (blocking: a background thread) and gives what follows the head.
    func read() -> QueueBuilder.Result {
        var whole = QueueBuilder.build(inputs, arrival: .commandLine, router: router)
        whole.items.removeFirst(min(head, whole.items.count))
        return whole
    }
}

/// A process exit status carried as an error.
struct ExitStatus: Error {
    var code: Int32
}
