import CGLib
import Foundation
import Synchronization

/// The one set of main-loop helpers, shared by the engine, the UI and the app (ReelGLib imports
/// GLib only). The GLib default main context is Reel's main thread: GTK, the GStreamer bus watch
/// and the progress timer all dispatch there. Swift's main queue is not pumped (see ARCHITECTURE.md), so
/// work from other threads reaches the main thread through `MainQueue`.
public enum GLibMainLoop {
    /// Spins the default main context until `condition` holds or `timeout` seconds pass.
    /// Returns whether the condition held. Must be called on the main thread.
    @MainActor
    @discardableResult
    public static func run(until condition: () -> Bool, timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        // A wake-up source so that a blocking iteration returns at least every 10 ms.
        let wake = g_timeout_add(10, { _ in 1 }, nil)
        defer { g_source_remove(wake) }
        while !condition() {
            if Date() >= deadline { return condition() }
            g_main_context_iteration(nil, 1)
        }
        return true
    }

    /// Spins the default main context for `seconds`.
    @MainActor
    public static func spin(for seconds: Double) {
        let deadline = Date().addingTimeInterval(seconds)
        run(until: { Date() >= deadline }, timeout: seconds + 1)
    }
}

/// Runs closures on the main thread from any thread, in the order they were posted, through a
/// GLib idle source on the default main context. Never blocks the poster.
public final class MainQueue: Sendable {
    public static let shared = MainQueue()
    private let pending = Mutex<[@Sendable @MainActor () -> Void]>([])
    private let scheduled = Mutex(false)

    public func async(_ work: @escaping @Sendable @MainActor () -> Void) {
        pending.withLock { $0.append(work) }
        let needsSchedule = scheduled.withLock { s -> Bool in
            if s { return false }
            s = true
            return true
        }
        if needsSchedule {
            g_idle_add_full(Int32(G_PRIORITY_DEFAULT), { _ in
                MainQueue.shared.drain()
                return 0
            }, nil, nil)
        }
    }

    /// Runs `work` on the main thread after `seconds` (a GLib timeout on the default context).
    public func after(_ seconds: Double, _ work: @escaping @Sendable @MainActor () -> Void) {
        let ms = UInt32(max(0, min(86_400_000, seconds * 1000)))
        g_timeout_add_full(Int32(G_PRIORITY_DEFAULT), ms, { data in
            let box = Unmanaged<WorkBox>.fromOpaque(data!).takeUnretainedValue()
            MainActor.assumeIsolated { box.work() }
            return 0
        }, Unmanaged.passRetained(WorkBox(work)).toOpaque(), { data in Unmanaged<WorkBox>.fromOpaque(data!).release() })
    }

    private final class WorkBox: Sendable {
        let work: @Sendable @MainActor () -> Void
        init(_ work: @escaping @Sendable @MainActor () -> Void) { self.work = work }
    }

    private func drain() {
        scheduled.withLock { $0 = false }
        let work = pending.withLock { items -> [@Sendable @MainActor () -> Void] in
            let w = items
            items.removeAll()
            return w
        }
        MainActor.assumeIsolated {
            for w in work { w() }
        }
    }
}

/// The program's main loop when no toolkit runs one (headless sessions): `run` blocks until `quit`.
@MainActor
public final class MainLoopRunner {
    private var loop: OpaquePointer?
    private var quitRequested = false

    public init() {}

    /// Runs the default main context until `quit` (returns at once when `quit` came first).
    public func run() {
        guard !quitRequested else { return }
        let loop = g_main_loop_new(nil, 0)
        self.loop = loop
        g_main_loop_run(loop)
        g_main_loop_unref(loop)
        self.loop = nil
    }

    public func quit() {
        quitRequested = true
        if let loop { g_main_loop_quit(loop) }
    }
}
