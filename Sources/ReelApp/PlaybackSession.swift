import CGStreamer
import Foundation
import ReelCore
import ReelEngine

/// Composes a player with the inputs: plays them in order, prints events, and decides the exit
/// status (0 when every item played to its end).
@MainActor
final class PlaybackSession {
    private let options: PlaybackOptions
    private var items: [String] = []
    private var index = 0
    private var played = 0
    private var failed = 0
    private var printer: EventPrinter?
    private var loop: OpaquePointer?
    private var finished = false
    /// Queue indices of loads whose `.itemChanged` has not been delivered yet; events are
    /// attributed to the item whose `.itemChanged` came last.
    private var pendingLoads: [Int] = []
    private var eventItem: Int?
    private lazy var router = GatewayRouter(settings: options.protected)  // protected streams (issue 5)

    init(options: PlaybackOptions) {
        self.options = options
    }

    func run() -> Int32 {
        items = options.inputs
        if options.printEvents { printer = EventPrinter(includeFineProgress: options.printProgress) }
        if !options.headless {
            FileHandle.standardError.write(Data("reel: no window yet in this build: playing headless\n".utf8))
        }
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
        defer { player.shutdown(); router.shutdown() }
        player.addObserver { [weak self, weak player] event in
            guard let self, let player else { return }
            self.handle(event, player: player)
        }
        if let v = options.volume { player.volume = v }
        if options.mute { player.isMuted = true }
        guard !items.isEmpty else { return 0 }
        pendingLoads.append(0)
        player.load(router.loadURI(for: items[0]))
        player.play()
        if let start = options.startPosition { player.seek(to: start, mode: .accurate) }
        if !finished {
            loop = g_main_loop_new(nil, 0)
            g_main_loop_run(loop)
            g_main_loop_unref(loop)
            loop = nil
        }
        return failed == 0 && played == items.count ? 0 : 1
    }

    private func handle(_ event: PlayerEvent, player: Player) {
        let event = router.refine(event, uri: player.currentURI)
        var printed = event
        if case .itemChanged(_, let uri, let title) = event {
            eventItem = pendingLoads.isEmpty ? eventItem : pendingLoads.removeFirst()
            printed = .itemChanged(index: eventItem, uri: uri, title: title)
        }
        printer?.print(printed, item: eventItem)
        switch event {
        case .playedToEnd:
            played += 1
            advance(player)
        case .error(let error):
            failed += 1
            FileHandle.standardError.write(Data("reel: \(MediaLocator.displayName(of: items[index])): \(error.message)\n".utf8))
            advance(player)
        default:
            break
        }
    }

    private func advance(_ player: Player) {
        if index + 1 < items.count {
            index += 1
            pendingLoads.append(index)
            player.load(router.loadURI(for: items[index]))
            return
        }
        finished = true
        printer?.print(.finished(played: played, failed: failed), item: nil)
        if options.exitAtEnd, let loop { g_main_loop_quit(loop) }
    }
}
