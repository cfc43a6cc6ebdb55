import Dispatch
import Foundation
import ReelEngine

/// SIGINT/SIGTERM as a main-thread callback (through `MainQueue`, since GLib owns the main
/// thread), so a session can close its socket and pipeline before exiting.
enum SignalWatcher {
    @MainActor private static var handlers: [@MainActor () -> Void] = []
    @MainActor private static var sources: [DispatchSourceSignal] = []

    @MainActor
    static func onTerminate(_ handler: @escaping @MainActor () -> Void) {
        handlers.append(handler)
        guard sources.isEmpty else { return }
        for sig in [SIGINT, SIGTERM] { sources.append(makeSource(sig)) }
    }

    /// The dispatch handler runs on a global queue: it must not be main-actor isolated.
    private nonisolated static func makeSource(_ sig: Int32) -> DispatchSourceSignal {
        signal(sig, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
        source.setEventHandler(handler: { @Sendable in
            MainQueue.shared.async { SignalWatcher.fire() }
        })
        source.resume()
        return source
    }

    @MainActor private static func fire() {
        for h in handlers { h() }
    }
}
