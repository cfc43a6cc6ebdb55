import CGio
import Foundation
import ReelCore
import ReelGLib

/// The desktop's view of the network, from GIO's `GNetworkMonitor` (NetworkManager's, the
/// portal's in a sandbox, else netlink's, as GNOME applications see it; `GIO_USE_NETWORK_MONITOR`
/// chooses). The monitor is made on a thread of its own (making NetworkManager's does a blocking
/// D-Bus round trip on the system bus), never on the main thread; its signals then arrive on the
/// main loop, and `onChange` is told every change (and the first reading) on the main thread.
@MainActor
public final class NetworkWatcher {
    /// The last reading; nil until the monitor has been made.
    public private(set) var state: NetworkState?
    /// The monitor's implementation ("GNetworkMonitorNM", …), for diagnostics.
    public private(set) var backend: String?
    public var onChange: (NetworkState) -> Void = { _ in }
    private var monitor: OpaquePointer?
    private var signalIDs: [UInt] = []
    private var stopped = false

    public init() {}

    /// Makes the monitor off the main thread, then reads it and follows its changes.
    public func start() {
        Thread.detachNewThread {
            // Transfer none: the process-wide default monitor, alive until exit.
            let made = UInt(bitPattern: g_network_monitor_get_default())
            MainQueue.shared.async { [weak self] in
                guard let self, !self.stopped, let monitor = OpaquePointer(bitPattern: made) else { return }
                self.attach(monitor)
            }
        }
    }

    /// Waits (running the main loop) until the first reading, at most `timeout` seconds.
    public func waitForFirstReading(timeout: Double) -> NetworkState? {
        if state == nil { _ = GLibMainLoop.run(until: { self.state != nil }, timeout: timeout) }
        return state
    }

    /// Stops following the monitor (a reading still on its way is dropped).
    public func stop() {
        stopped = true
        guard let monitor else { return }
        for id in signalIDs { g_signal_handler_disconnect(UnsafeMutableRawPointer(monitor), id) }
        signalIDs.removeAll()
        self.monitor = nil
    }

    private func attach(_ monitor: OpaquePointer) {
        self.monitor = monitor
        backend = String(cString: reel_type_name(UnsafeMutableRawPointer(monitor)))
        let destroy: GClosureNotify = { data, _ in Unmanaged<Box>.fromOpaque(data!).release() }
        signalIDs.append(reel_network_monitor_connect_changed(monitor, { _, _, data in
            let box = Unmanaged<Box>.fromOpaque(data!).takeUnretainedValue()
            MainActor.assumeIsolated { box.watcher?.read() }
        }, Unmanaged.passRetained(Box(self)).toOpaque(), destroy))
        for property in ["notify::network-metered", "notify::connectivity", "notify::network-available"] {
            signalIDs.append(reel_object_connect_notify(UnsafeMutableRawPointer(monitor), property, { _, _, data in
                let box = Unmanaged<Box>.fromOpaque(data!).takeUnretainedValue()
                MainActor.assumeIsolated { box.watcher?.read() }
            }, Unmanaged.passRetained(Box(self)).toOpaque(), destroy))
        }
        read()
    }

    private func read() {
        guard let monitor else { return }
        let connectivity: NetworkState.Connectivity = switch g_network_monitor_get_connectivity(monitor) {
        case G_NETWORK_CONNECTIVITY_LOCAL: .local
        case G_NETWORK_CONNECTIVITY_LIMITED: .limited
        case G_NETWORK_CONNECTIVITY_PORTAL: .portal
        default: .full
        }
        let now = NetworkState(available: g_network_monitor_get_network_available(monitor) != 0,
                               metered: g_network_monitor_get_network_metered(monitor) != 0, connectivity: connectivity)
        guard now != state else { return }
        Log.debug(.network, .info, "the network monitor (\(backend ?? "?")) reads \(now)\(state == nil ? " (its first reading)" : "")")
        state = now
        onChange(now)
    }

    /// What a signal's user_data holds: the watcher, weakly (a signal after `stop` finds nothing).
    private final class Box {
        weak var watcher: NetworkWatcher?
        init(_ watcher: NetworkWatcher) { self.watcher = watcher }
    }
}
