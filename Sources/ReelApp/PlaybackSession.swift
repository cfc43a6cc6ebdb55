import Foundation
import ReelCore
import ReelEngine
import ReelGLib

/// Composes a player and a queue with the inputs: builds one queue from every FILE/URL/PLAYLIST,
/// plays it through a `QueueController`, prints events, and decides the exit status (0 only when
/// every item played to its end and every playlist read cleanly).
@MainActor
final class PlaybackSession {
    private var options: PlaybackOptions
    private var printer: EventPrinter?
    private let loop = MainLoopRunner()
    private var finished = false
    /// For `finish`: the user's quit is the queue's last event.
    private weak var controller: QueueController?
    private var playlistErrors = 0
    private var remote: RemoteControl?
    /// Set by a remote `quit` or a signal: the exit status to use.
    private var quitStatus: Int32?

    init(options: PlaybackOptions) {
        self.options = options
    }

    func run() -> Int32 {
        if options.printEvents { printer = EventPrinter(includeFineProgress: options.printProgress) }
        if !options.headless {
            if let status = WindowSession.run(options: options) { return status }
            Diagnostics.say("no display (DISPLAY is unset or unreachable): playing headless")
            // As with --headless: exit at the end unless a socket or --mpris drives the session.
            options.headless = true
            options.exitAtEnd = options.exitAtEnd || !options.remote.keepsSessionAlive
        }
        let router = GatewayRouter(settings: options.protected)
        defer { router.shutdown() }
        let prepared: QueuePreparation.Prepared
        switch QueuePreparation.prepare(options, router: router) {
        case .success(let p): prepared = p
        case .failure(let status): return status.code
        }
        let queue = prepared.queue

        let config = PlayerConfiguration(
            audioSink: options.audioSink,
            videoSink: options.videoSink ?? "fakesink sync=true",
            progressInterval: options.progressInterval,
            endAction: .advance)
        let player: Player
        do { player = try Player(configuration: config) } catch {
            Diagnostics.say("\(error)")
            return 2
        }
        defer { player.shutdown() }
        for error in prepared.errors {
            playlistErrors += 1
            Diagnostics.say(error.message)
            printer?.print(.error(error), item: nil)
        }
        let controller = QueueController(player: player, queue: queue)
        self.controller = controller
        controller.retryPolicy = options.retryPolicy
        controller.router = router
        defer { controller.detach() }
        controller.addObserver { [weak self, weak controller] event, item in
            guard let self, let controller else { return }
            self.handle(event, item: item, controller: controller)
        }
        do {
            let intake = QueueIntake(controller: controller)
            intake.onErrors = { [weak self] errors in
                for error in errors {
                    Diagnostics.say(error.message)
                    self?.printer?.print(.error(error), item: nil)
                }
            }
            remote = try RemoteControl(options: options.remote, controller: controller, intake: intake)
        } catch {
            Diagnostics.say("--ipc: \(error)")
            return 2
        }
        defer { remote?.stop() }
        remote?.target.onQuit = { [weak self] status in self?.finish(status: status) }
        SignalWatcher.onTerminate { [weak self] in self?.finish(status: 0) }
        if let v = options.volume { player.volume = v }
        if options.mute { player.isMuted = true }
        guard !queue.isEmpty || options.remote.keepsSessionAlive else {
            printer?.print(.finished(played: 0, failed: 0, reason: .ended), item: nil)
            return playlistErrors == 0 ? 0 : 1
        }
        controller.play()
        if let start = options.startPosition { player.seek(to: start, mode: .accurate) }
        if !(finished && options.exitAtEnd) && quitStatus == nil {
            loop.run()
        }
        if let quitStatus { return quitStatus }
        let everyItemPlayed = controller.queue.items.allSatisfy { $0.state == .played }
        return controller.failedCount == 0 && playlistErrors == 0 && everyItemPlayed ? 0 : 1
    }

    private func finish(status: Int32) {
        quitStatus = status
        controller?.userQuit()
        loop.quit()
    }

    private func handle(_ event: PlayerEvent, item: Int?, controller: QueueController) {
        printer?.print(event, item: item)
        remote?.handle(event, item: item)
        switch event {
        case .error(let error), .warning(let error):
            let name = item.map { controller.queue.items[$0].displayTitle } ?? "?"
            Diagnostics.say("\(name): \(error.message)")
        case .finished:
            finished = true
            if options.exitAtEnd { loop.quit() }
        default:
            break
        }
    }
}
