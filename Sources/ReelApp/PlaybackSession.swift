import CGStreamer
import Foundation
import ReelCore
import ReelEngine

/// Composes a player and a queue with the inputs: builds one queue from every FILE/URL/PLAYLIST,
/// plays it through a `QueueController`, prints events, and decides the exit status (0 only when
/// every item played to its end and every playlist read cleanly).
@MainActor
final class PlaybackSession {
    private let options: PlaybackOptions
    private var printer: EventPrinter?
    private var loop: OpaquePointer?
    private var finished = false
    private var playlistErrors = 0

    init(options: PlaybackOptions) {
        self.options = options
    }

    func run() -> Int32 {
        if options.printEvents { printer = EventPrinter(includeFineProgress: options.printProgress) }
        if !options.headless {
            if let status = WindowSession.run(options: options) { return status }
            FileHandle.standardError.write(Data("reel: no display (DISPLAY is unset or unreachable): playing headless\n".utf8))
        }
        let built = QueueBuilder.build(options.inputs)
        var queue = PlayQueue(built.items, repeatMode: options.repeatMode)
        if let start = options.startIndex {
            guard queue.items.indices.contains(start) else {
                FileHandle.standardError.write(Data("reel: --start=\(start): the queue has \(queue.count) item(s)\n".utf8))
                return 2
            }
            queue.jump(to: start)
        }
        if options.shuffle {
            queue.setShuffle(true)
            if queue.currentID == nil { queue.jump(to: 0) }
        }
        if let file = options.savePlaylist, !save(queue.items, to: file) { return 2 }

        let config = PlayerConfiguration(
            audioSink: options.audioSink,
            videoSink: options.videoSink ?? "fakesink sync=true",
            progressInterval: options.progressInterval,
            endAction: .advance)
        let player: Player
        do { player = try Player(configuration: config) } catch {
            FileHandle.standardError.write(Data("reel: \(error)\n".utf8))
            return 2
        }
        defer { player.shutdown() }
        for error in built.errors {
            playlistErrors += 1
            FileHandle.standardError.write(Data("reel: \(error.message)\n".utf8))
            printer?.print(.error(error), item: nil)
        }
        let controller = QueueController(player: player, queue: queue)
        defer { controller.detach() }
        controller.addObserver { [weak self, weak controller] event, item in
            guard let self, let controller else { return }
            self.handle(event, item: item, controller: controller)
        }
        if let v = options.volume { player.volume = v }
        if options.mute { player.isMuted = true }
        guard !queue.isEmpty else {
            printer?.print(.finished(played: 0, failed: 0), item: nil)
            return playlistErrors == 0 ? 0 : 1
        }
        controller.play()
        if let start = options.startPosition { player.seek(to: start, mode: .accurate) }
        if !finished {
            loop = g_main_loop_new(nil, 0)
            g_main_loop_run(loop)
            g_main_loop_unref(loop)
            loop = nil
        }
        let everyItemPlayed = controller.queue.items.allSatisfy { $0.state == .played }
        return controller.failedCount == 0 && playlistErrors == 0 && everyItemPlayed ? 0 : 1
    }

    private func handle(_ event: PlayerEvent, item: Int?, controller: QueueController) {
        printer?.print(event, item: item)
        switch event {
        case .error(let error):
            let name = item.map { controller.queue.items[$0].displayTitle } ?? "?"
            FileHandle.standardError.write(Data("reel: \(Redactor.redactText(name)): \(error.message)\n".utf8))
        case .finished:
            finished = true
            if options.exitAtEnd, let loop { g_main_loop_quit(loop) }
        default:
            break
        }
    }

    /// Writes the queue as M3U8 or XSPF (by extension); owner-only when options hold secrets.
    private func save(_ items: [QueueItem], to file: String) -> Bool {
        guard let format = PlaylistWriter.Format(fileName: file) else {
            FileHandle.standardError.write(Data("reel: --save-playlist: use a .m3u8 or .xspf file name\n".utf8))
            return false
        }
        let url = URL(fileURLWithPath: (file as NSString).expandingTildeInPath).standardizedFileURL
        let text = PlaylistWriter.write(items, format: format, directory: url.deletingLastPathComponent())
        let secret = PlaylistWriter.containsSecrets(items)
        let ok = FileManager.default.createFile(atPath: url.path, contents: Data(text.utf8),
                                                attributes: [.posixPermissions: secret ? 0o600 : 0o644])
        if !ok { FileHandle.standardError.write(Data("reel: --save-playlist: cannot write \(url.path)\n".utf8)) }
        return ok
    }
}
