import CGio
import Foundation
import ReelCore

/// One Reel per user session, as Totem, Celluloid and Clapper are (GApplication's way, over
/// GDBus): the first windowed Reel owns the app's name on the session bus and answers
/// freedesktop's `org.freedesktop.Application.Open`; a later `reel FILES` hands them to it and
/// exits 0. The bus drops the name when its owner ends, however it ends (SIGKILL too). Never
/// autolaunches a bus: without one, every Reel is its own.
///
/// The object is registered before the name is asked for, so a call that D-Bus activation
/// delivers the moment the name is owned (a file manager's Open, `DBusActivatable=true`) finds it;
/// calls that come before the session can take them wait (`ready`).
@MainActor
public final class SingleInstance {
    public static let busName = "io.github.reel_player.Reel"
    public static let objectPath = "/io/github/reel_player/Reel"

    private let connection: OpaquePointer
    private var registration: UInt32 = 0
    private var nodeInfo: UnsafeMutablePointer<GDBusNodeInfo>?
    private let vtable: UnsafeMutablePointer<GDBusInterfaceVTable>
    private let bridge: Bridge
    /// URIs handed over (and whether to enqueue them rather than play the first at once).
    public var onOpen: (_ uris: [String], _ enqueue: Bool) -> Void = { _, _ in }
    /// freedesktop's Activate (a launcher's click, D-Bus activation without files): show the window.
    public var onActivate: () -> Void = {}
    /// Calls that came before `ready()`.
    private var waiting: [(uris: [String], enqueue: Bool)] = []
    private var isReady = false

    /// The session takes calls from now on (those that came before are handed over in order).
    public func ready() {
        isReady = true
        for call in waiting { call.uris.isEmpty ? onActivate() : onOpen(call.uris, call.enqueue) }
        waiting = []
    }

    fileprivate func received(_ uris: [String], enqueue: Bool) {
        guard isReady else { waiting.append((uris, enqueue)); return }
        uris.isEmpty ? onActivate() : onOpen(uris, enqueue)
    }

    final class Bridge: @unchecked Sendable { weak var owner: SingleInstance? }

    public enum Start {
        /// This process owns the name: it is the one instance.
        case owner(SingleInstance)
        /// Another instance took the files: this one is done.
        case handedOver
        /// No bus, or the name could not be had: this process goes on alone.
        case alone
    }

    /// Owns the name, or (when `uris` are given and `handOver`) gives them to the instance that does.
    public static func start(uris: [String], enqueue: Bool, handOver: Bool) -> Start {
        guard SessionBus.isAvailable(), let bus = reel_session_bus_sync() else { return .alone }
        let instance = SingleInstance(connection: bus)
        let reply = reel_request_name(bus, busName)
        if reply == 1 { return .owner(instance) }
        instance.unregister()  // the connection stays this function's
        switch reply {
        case 3 where handOver && !uris.isEmpty:
            let delivered = withArrayOfCStrings(uris) { reel_application_open(bus, busName, objectPath, $0, enqueue ? 1 : 0, 5000) } == 1
            g_object_unref(UnsafeMutableRawPointer(bus))
            return delivered ? .handedOver : .alone
        default:
            g_object_unref(UnsafeMutableRawPointer(bus))
            return .alone
        }
    }

    private init(connection: OpaquePointer) {
        self.connection = connection
        bridge = Bridge()
        vtable = .allocate(capacity: 1)
        vtable.initialize(to: GDBusInterfaceVTable())
        bridge.owner = self
        vtable.pointee.method_call = { _, _, _, _, method, parameters, invocation, data in
            let bridge = Unmanaged<Bridge>.fromOpaque(data!).takeUnretainedValue()
            let name = String(cString: method!)
            var enqueue: gboolean = 0
            var uris: [String] = []
            if name == "Open", let list = reel_application_open_args(parameters, &enqueue) {
                var i = 0
                while let p = list[i] { uris.append(String(cString: p)); i += 1 }
                g_strfreev(list)
            }
            let (received, queue) = (uris, enqueue != 0)
            let known = name == "Open" || name == "Activate"
            if known { MainActor.assumeIsolated { bridge.owner?.received(received, enqueue: queue) } }
            g_dbus_method_invocation_return_value(invocation, nil)
        }
        nodeInfo = g_dbus_node_info_new_for_xml(Self.introspection, nil)
        guard let nodeInfo, let info = g_dbus_node_info_lookup_interface(nodeInfo, "org.freedesktop.Application") else { return }
        registration = g_dbus_connection_register_object(connection, Self.objectPath, info, vtable, Unmanaged.passRetained(bridge).toOpaque(), { data in
            Unmanaged<Bridge>.fromOpaque(data!).release()
        }, nil)
    }

    /// Lets the name go (the session ends; the bus would at the process's end anyway).
    public func stop() {
        unregister()
        g_object_unref(UnsafeMutableRawPointer(connection))
    }

    private func unregister() {
        if registration != 0 { g_dbus_connection_unregister_object(connection, registration); registration = 0 }
        if let nodeInfo { g_dbus_node_info_unref(nodeInfo); self.nodeInfo = nil }
    }

    static let introspection = """
    <node><interface name="org.freedesktop.Application">
      <method name="Activate"><arg type="a{sv}" name="platform_data" direction="in"/></method>
      <method name="Open"><arg type="as" name="uris" direction="in"/><arg type="a{sv}" name="platform_data" direction="in"/></method>
      <method name="ActivateAction"><arg type="s" name="action_name" direction="in"/><arg type="av" name="parameter" direction="in"/><arg type="a{sv}" name="platform_data" direction="in"/></method>
    </interface></node>
    """
}

/// `body` with the strings as a NULL-terminated C array.
private func withArrayOfCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
    let copies = strings.map { strdup($0) }
    defer { copies.forEach { free($0) } }
    let pointers = copies.map { UnsafePointer($0) } + [nil]
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}
