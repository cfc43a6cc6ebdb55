import Dispatch
import Foundation
import ReelEngine

/// SIGINT/SIGTERM as a main-thread callback (through `MainQueue`, since GLib owns the main
/// thread), so a session can close its socket and pipeline before exiting.
@MainActor
enum SignalWatcher {
    private static var handlers: [@MainActor () -> Void] = []
    private static var sources: [DispatchSourceSignal] = []

    static func onTerminate(_ handler: @escaping @MainActor () -> Void) {
        handlers.append(handler)
        guard sources.isEmpty else { return }
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler {
                MainQueue.shared.async { for h in SignalWatcher.handlers { h() } }
            }
            source.resume()
            sources.append(source)
        }
    }
}
