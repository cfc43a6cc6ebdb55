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
    /// `--mpris`, not yet on the bus: it is started at the first frame (or the first error, or
    /// the end, or after `mprisDelay`), so that connecting to the session bus never competes
    /// with the first frame. Its properties are read from `target` when asked, so nothing is missed.
    private var mprisPending = false
    static let mprisDelay = 1.0
    private var shots: ScreenshotScheduler?
    private let started = Date()

    /// Starts what `options` ask for; throws (with a message for people) when the socket cannot be served.
    init(options: RemoteOptions, target: QueueCommandTarget) throws {
        self.target = target
        let directory = URL(fileURLWithPath: options.screenshotDirectory ?? FileManager.default.currentDirectoryPath, isDirectory: true)
        if let path = options.ipcPath {
            let resolved = path.isEmpty || path == "auto" ? try ControlSocketServer.defaultPath() : path
            socket = try ControlSocketService(path: resolved, target: target, screenshotDirectory: directory)
            Diagnostics.say("control socket at \(resolved)")
        }
        if options.mpris {
            mprisPending = true
            MainQueue.shared.after(Self.mprisDelay) { [weak self] in self?.startMPRIS() }
        }
        if !options.screenshotAt.isEmpty {
            shots = ScreenshotScheduler(positions: options.screenshotAt, directory: directory, player: target.player)
        }
    }

    private func startMPRIS() {
        guard mprisPending else { return }
        mprisPending = false
        mpris = MPRISService(target: target, identity: "Reel")
    }

    func handle(_ event: PlayerEvent, item: Int?) {
        if mprisPending {
            switch event {
            case .status(.readyToPlay), .error, .finished: startMPRIS()
            default: break
            }
        }
        shots?.handle(event, item: item)
        socket?.publish(event, item: item, time: Date().timeIntervalSince(started))
        mpris?.handle(event)
    }

    func stop() {
        mprisPending = false
        socket?.stop()
        mpris?.stop()
        socket = nil
        mpris = nil
    }
}
