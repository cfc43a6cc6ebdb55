import Foundation
import ReelCore
import ReelDesktop
import ReelEngine
import ReelGLib

/// The headless front end: Reel assembled by `SessionCore` with a fake video sink (unless one is
/// given), run on a GLib main loop until the queue ends (with `--exit-at-end`) or the user quits;
/// decides the exit status (0 only when every item played to its end and every playlist read
/// cleanly). Without a display it is also where a windowed session falls back to.
@MainActor
final class PlaybackSession {
    private var options: PlaybackOptions
    private let loop = MainLoopRunner()
    private var finished = false
    private var core: SessionCore?
    /// Set by a remote `quit` or a signal: the exit status to use.
    private var quitStatus: Int32?

    init(options: PlaybackOptions) {
        self.options = options
    }

    func run() -> Int32 {
        if !options.headless {
            // One Reel per user session: a person's `reel FILES` goes to the window already open
            // (scripted runs, --new-window and a run without files keep their own process).
            var instance: SingleInstance?
            if options.singleInstance {
                let uris = options.inputs.map { MediaLocator.uri(for: $0) }
                switch SingleInstance.start(uris: uris, enqueue: options.enqueue, handOver: !options.inputs.isEmpty) {
                case .handedOver:
                    Diagnostics.say(tr("handed to the Reel already open"))
                    return 0
                case .owner(let owner): instance = owner
                case .alone:
                    // Started by D-Bus for a name it cannot own: the call goes to its owner.
                    if options.dbusService {
                        Diagnostics.say(tr("started as the D-Bus service, but the session bus or the name io.github.reel_player.Reel is not to be had"))
                        return 1
                    }
                }
            }
            defer { instance?.stop() }
            if let status = WindowSession.run(options: options, instance: instance) { return status }
            Diagnostics.say(tr("no display (DISPLAY is unset or unreachable): playing headless"))
            // As with --headless: exit at the end unless a socket or --mpris drives the session.
            options.headless = true
            options.autoload = false  // headless plays what it was given
            options.exitAtEnd = options.exitAtEnd || !options.remote.keepsSessionAlive
        }
        let core: SessionCore
        switch SessionCore.assemble(options, videoSink: options.videoSink ?? "fakesink sync=true") {
        case .success(let c): core = c
        case .failure(let status): return status.code
        }
        self.core = core
        defer { core.shutdown(processEnding: true) }  // `ProcessEnd` follows
        core.onIntakeErrors = { errors in for error in errors { Diagnostics.say(error.message) } }
        core.onEvent = { [weak self] event, item in self?.handle(event, item: item) }
        core.commands.onQuit = { [weak self] status in self?.finish(status: status) }
        SignalWatcher.onTerminate { [weak self] in self?.finish(status: 0) }
        core.start()
        guard !core.sequencer.queue.isEmpty || options.remote.keepsSessionAlive else {
            core.print(.finished(played: 0, failed: 0, reason: .ended))
            return core.playlistErrors.isEmpty ? 0 : 1
        }
        if !(finished && options.exitAtEnd) && quitStatus == nil {
            loop.run()
        }
        let status = quitStatus ?? core.exitStatusAtEnd
        ExitDeadline.arm(status: status)  // then `core.shutdown()`, bounded by it
        return status
    }

    private func finish(status: Int32) {
        quitStatus = status
        core?.sequencer.userQuit()
        loop.quit()
    }

    private func handle(_ event: PlayerEvent, item: Int?) {
        switch event {
        case .error(let error), .warning(let error):
            let name = item.flatMap { i in core?.sequencer.queue.items.indices.contains(i) == true ? core?.sequencer.queue.items[i].displayTitle : nil } ?? "?"
            Diagnostics.say("\(name): \(error.message)")
        case .finished:
            finished = true
            if options.exitAtEnd { loop.quit() }
        default:
            break
        }
    }
}
