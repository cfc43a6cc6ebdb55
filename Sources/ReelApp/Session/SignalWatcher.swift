import Foundation
import ReelEngine
#if canImport(Glibc)
import Glibc
import ReelGLib
#endif

/// SIGINT/SIGTERM as a main-thread callback, so a session can close its socket and pipeline
/// before exiting. A sigaction handler writes a byte to a pipe (async-signal-safe); a reader
/// thread hops to the main thread through `MainQueue` (GLib owns the main thread).
/// (libdispatch signal sources are not used: on Linux they leave the signal's default action in
/// place for threads that did not block it, so a SIGTERM could still kill the process.)
enum SignalWatcher {
    @MainActor private static var handlers: [@MainActor () -> Void] = []
    @MainActor private static var installed = false
    nonisolated(unsafe) private static var pipeWrite: Int32 = -1

    @MainActor
    static func onTerminate(_ handler: @escaping @MainActor () -> Void) {
        handlers.append(handler)
        guard !installed else { return }
        installed = true
        install()
    }

    private nonisolated static func install() {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK)
        pipeWrite = fds[1]
        let readFD = fds[0]
        let thread = Thread {
            var b: UInt8 = 0
            while true {
                let n = read(readFD, &b, 1)
                if n == 1 { MainQueue.shared.async { SignalWatcher.fire() } }
                else if n < 0 && errno == EINTR { continue }
                else { return }
            }
        }
        thread.name = "reel-signals"
        thread.start()
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in
            var b: UInt8 = 1
            _ = write(SignalWatcher.pipeWrite, &b, 1)
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        for sig in [SIGINT, SIGTERM] { sigaction(sig, &action, nil) }
    }

    @MainActor private static func fire() {
        for h in handlers { h() }
    }
}
