import Foundation
import ReelCore
import ReelEngine
import ReelGLib

/// The control socket (`--ipc`): a `ControlSocketServer` whose lines run through an
/// `IPCDispatcher` on the main thread, and which broadcasts every event (the `--events` objects)
/// to every client.
@MainActor
final class ControlSocketService {
    private let server: ControlSocketServer
    private let dispatcher: IPCDispatcher

    var path: String { server.path }

    init(path: String, target: PlaybackCommandTarget, screenshotDirectory: URL, template: String = CaptureFileName.defaultTemplate,
         registry: IPCCommandRegistry = IPCCommandRegistry()) throws {
        server = try ControlSocketServer(path: path)
        dispatcher = IPCDispatcher(target: target, screenshotDirectory: screenshotDirectory, template: template, registry: registry)
        let server = self.server
        server.start(onLine: { [weak self] client, line in
            // A quit is timed from when it arrives, not from when the main thread gets to it: a
            // main thread held for seconds (a huge live playlist's refresh on a busy machine)
            // once kept Reel for 6.9 s after `quit` (QuitDeadlineTests).
            if case .success(let request) = IPCRequest.parse(line), case .quit(let status) = request.command {
                ExitDeadline.arm(status: status)
            }
            MainQueue.shared.async {
                guard let self else { return }
                self.dispatcher.handle(line) { reply in server.send(reply, to: client) }
            }
        }, onOverlongLine: { client in
            server.send(IPCDispatcher.errorLine(id: .null, error: IPCError(.invalidRequest, "The line was longer than 1 MiB and was discarded.")), to: client)
        })
    }

    /// Sends an event to every client, as `--events` prints it.
    func publish(_ event: PlayerEvent, item: Int?, time: Double) {
        server.broadcast(EventEncoder.line(event, item: item, time: time))
    }

    func stop() { server.stop() }
}
