import Foundation
import ReelCore
import ReelDesktop
import ReelEngine
import ReelGLib
import ReelUI

/// The outside view of a session: the control socket (`--ipc`), MPRIS (`--mpris`) and
/// `--screenshot-at`, all over one `QueueCommandTarget`. Both the headless and the windowed
/// session host one and feed it every queue event.
@MainActor
final class RemoteControl {
    let target: QueueCommandTarget
    private var socket: ControlSocketService?
    private var mpris: MPRISService?
    /// `--mpris`, not yet on the bus: it is started after the first frame (`AfterFirstFrame`).
    /// Its properties are read from `target` when asked, so nothing is missed.
    private var mprisStart: AfterFirstFrame?
    private var shots: ScreenshotScheduler?
    private let started = Date()

    /// Starts what `options` ask for; throws (with a message for people) when the socket cannot be served.
    private let registry: IPCCommandRegistry

    init(options: RemoteOptions, target: QueueCommandTarget, registry: IPCCommandRegistry) throws {
        self.target = target
        self.registry = registry
        let directory = URL(fileURLWithPath: options.screenshotDirectory ?? FileManager.default.currentDirectoryPath, isDirectory: true)
        if let path = options.ipcPath {
            let resolved = path.isEmpty || path == "auto" ? try ControlSocketServer.defaultPath() : path
            socket = try ControlSocketService(path: resolved, target: target, screenshotDirectory: directory, registry: registry)
            Diagnostics.say(String(format: tr("control socket at %@"), resolved))
        }
        if options.mpris {
            mprisStart = AfterFirstFrame { [weak self] in self?.startMPRIS() }
        }
        if !options.screenshotAt.isEmpty {
            shots = ScreenshotScheduler(positions: options.screenshotAt, directory: directory, player: target.player)
        }
    }

    private func startMPRIS() {
        mpris = MPRISService(target: target, properties: registry.properties, identity: "Reel")
    }

    func handle(_ event: PlayerEvent, item: Int?) {
        mprisStart?.handle(event)
        shots?.handle(event, item: item)
        socket?.publish(event, item: item, time: Date().timeIntervalSince(started))
        mpris?.handle(event)
    }

    func stop() {
        mprisStart?.cancel()
        socket?.stop()
        mpris?.stop()
        socket = nil
        mpris = nil
    }
}
