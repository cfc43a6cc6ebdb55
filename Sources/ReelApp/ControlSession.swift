import CGStreamer
import Foundation
import ReelCore
import ReelEngine
import ReelUI

/// A headless playback session driven remotely: the control socket (`--ipc`) and MPRIS
/// (`--mpris`) over a `PlayerCommandTarget`, plus `--screenshot-at`. It keeps running after the last item until `quit`
/// (or SIGINT/SIGTERM), unless `--exit-at-end` was given.
///
/// HOOK (issues 3/4): when the queue controller and the window land, the normal session should
/// create `ControlSocketService` / `MPRISService` itself with the queue controller as the
/// target, and this session can go.
@MainActor
final class ControlSession {
    struct Remote {
        /// nil: no socket; "" or "auto": the default path.
        var ipcPath: String?
        var mpris: Bool
        var exitAtEnd: Bool
        var screenshotDirectory: String?
        /// `--screenshot-at`: capture every item's frame at these positions while playing.
        var screenshotAt: [CapturePosition] = []
    }

    private let options: PlaybackOptions
    private let remote: Remote
    private var loop: OpaquePointer?
    private var exitStatus: Int32 = 0
    private var quitRequested = false

    init(options: PlaybackOptions, remote: Remote) {
        self.options = options
        self.remote = remote
    }

    /// Runs `PlayCommand` through a control session when `--ipc` or `--mpris` was given;
    /// returns nil when neither was (the normal session runs).
    static func runIfRequested(_ options: PlaybackOptions, remote: Remote) -> Int32? {
        guard remote.ipcPath != nil || remote.mpris || !remote.screenshotAt.isEmpty else { return nil }
        let session = ControlSession(options: options, remote: remote)
        return withExtendedLifetime(session) { session.run() }
    }

    func run() -> Int32 {
        let started = Date()
        let config = PlayerConfiguration(
            audioSink: options.audioSink,
            videoSink: options.videoSink ?? "fakesink sync=true enable-last-sample=true",
            progressInterval: options.progressInterval,
            endAction: .advance)
        let player: Player
        do { player = try Player(configuration: config) } catch {
            FileHandle.standardError.write(Data("reel: \(error)\n".utf8))
            return 2
        }
        defer { player.shutdown() }
        let target = PlayerCommandTarget(player: player, inputs: options.inputs)
        let printer = options.printEvents ? EventPrinter(includeFineProgress: options.printProgress) : nil

        var socket: ControlSocketService?
        if let path = remote.ipcPath {
            let resolved = path.isEmpty || path == "auto" ? ControlSocketServer.defaultPath() : path
            let dir = remote.screenshotDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) }
                ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
            do {
                socket = try ControlSocketService(path: resolved, target: target, screenshotDirectory: dir)
            } catch {
                FileHandle.standardError.write(Data("reel: --ipc: \(error)\n".utf8))
                return 2
            }
            FileHandle.standardError.write(Data("reel: control socket at \(resolved)\n".utf8))
        }
        defer { socket?.stop() }
        let mpris = remote.mpris ? MPRISService(target: target, identity: "Reel") : nil
        defer { mpris?.stop() }

        let shots = remote.screenshotAt.isEmpty ? nil : ScreenshotScheduler(
            positions: remote.screenshotAt,
            directory: URL(fileURLWithPath: remote.screenshotDirectory ?? FileManager.default.currentDirectoryPath, isDirectory: true),
            player: player)
        target.onEvent = { event, item in
            printer?.print(event, item: item)
            shots?.handle(event, item: item)
            socket?.publish(event, item: item, time: Date().timeIntervalSince(started))
            mpris?.handle(event)
        }
        target.onFinished = { [weak self] _, failed in
            guard let self, self.remote.exitAtEnd else { return }
            self.finish(status: failed == 0 ? 0 : 1)
        }
        target.onQuit = { [weak self] status in self?.finish(status: status) }
        SignalWatcher.onTerminate { [weak self] in self?.finish(status: 0) }

        if let v = options.volume { player.volume = v }
        if options.mute { player.isMuted = true }
        target.start(play: true)
        if let start = options.startPosition { player.seek(to: start, mode: .accurate) }
        if !quitRequested {
            loop = g_main_loop_new(nil, 0)
            g_main_loop_run(loop)
            g_main_loop_unref(loop)
            loop = nil
        }
        return exitStatus
    }

    private func finish(status: Int32) {
        exitStatus = status
        quitRequested = true
        if let loop { g_main_loop_quit(loop) }
    }
}
