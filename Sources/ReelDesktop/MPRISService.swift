import CGio
import Foundation
import ReelCore

/// MPRIS 2 on the session bus (org.mpris.MediaPlayer2 and .Player) over GDBus, so media keys,
/// desktop shells and `playerctl` control Reel. It drives a `PlaybackCommandTarget` (ReelCore)
/// and is told about changes through `handle(_:)` with the player's events; it emits
/// PropertiesChanged for the properties that changed (never for Position, as the spec says) and
/// Seeked after a seek. Runs on the main thread; GDBus dispatches on the default main context.
@MainActor
public final class MPRISService {
    public static let objectPath = "/org/mpris/MediaPlayer2"
    static let rootInterface = "org.mpris.MediaPlayer2"
    static let playerInterface = "org.mpris.MediaPlayer2.Player"
    static let noTrack = "/org/mpris/MediaPlayer2/TrackList/NoTrack"

    public let busName: String
    private let target: PlaybackCommandTarget
    /// The session's properties: MPRIS's Volume, Rate, LoopStatus and Shuffle read and set the
    /// same `volume`, `speed`, `loop` and `shuffle` the socket and the keys do.
    private let properties: PropertyTable
    private let identity: String
    private var ownerID: UInt32 = 0
    private var connection: OpaquePointer?
    private var registrations: [UInt32] = []
    private var nodeInfo: UnsafeMutablePointer<GDBusNodeInfo>?
    private let vtable: UnsafeMutablePointer<GDBusInterfaceVTable>
    private var bridge: MPRISBridge!
    /// The last values sent (or read) per property, serialised, to emit only real changes.
    private var lastSent: [String: String] = [:]
    /// The file `mpris:artUrl` names for the current item's cover art.
    private let coverArt = CoverArtFile()
    public private(set) var isOwned = false

    public init(target: PlaybackCommandTarget, properties: PropertyTable, identity: String = "Reel", instance: String? = nil) {
        self.target = target
        self.properties = properties
        self.identity = identity
        busName = "org.mpris.MediaPlayer2.reel.instance\(instance ?? String(ProcessInfo.processInfo.processIdentifier))"
        vtable = .allocate(capacity: 1)
        vtable.initialize(to: GDBusInterfaceVTable())
        vtable.pointee.method_call = { _, _, _, interface, method, parameters, invocation, data in
            let bridge = Unmanaged<MPRISBridge>.fromOpaque(data!).takeUnretainedValue()
            let iface = String(cString: interface!), name = String(cString: method!)
            nonisolated(unsafe) let params = parameters, inv = invocation
            MainActor.assumeIsolated { bridge.service?.call(iface, name, params, inv) }
        }
        vtable.pointee.get_property = { _, _, _, interface, property, _, data in
            let bridge = Unmanaged<MPRISBridge>.fromOpaque(data!).takeUnretainedValue()
            let iface = String(cString: interface!), name = String(cString: property!)
            nonisolated(unsafe) var result: OpaquePointer?
            MainActor.assumeIsolated { result = bridge.service?.property(iface, name) }
            return result
        }
        vtable.pointee.set_property = { _, _, _, interface, property, value, _, data in
            let bridge = Unmanaged<MPRISBridge>.fromOpaque(data!).takeUnretainedValue()
            let iface = String(cString: interface!), name = String(cString: property!)
            nonisolated(unsafe) let v = value
            var ok = false
            MainActor.assumeIsolated { ok = bridge.service?.setProperty(iface, name, v) ?? false }
            return ok ? 1 : 0
        }
        bridge = MPRISBridge(service: self)
        nodeInfo = g_dbus_node_info_new_for_xml(Self.introspection, nil)
        ownerID = g_bus_own_name(G_BUS_TYPE_SESSION, busName, G_BUS_NAME_OWNER_FLAGS_NONE, { connection, _, data in
            let bridge = Unmanaged<MPRISBridge>.fromOpaque(data!).takeUnretainedValue()
            nonisolated(unsafe) let c = connection
            MainActor.assumeIsolated { bridge.service?.busAcquired(c) }
        }, { _, _, data in
            let bridge = Unmanaged<MPRISBridge>.fromOpaque(data!).takeUnretainedValue()
            MainActor.assumeIsolated { bridge.service?.isOwned = true }
        }, { _, _, data in
            let bridge = Unmanaged<MPRISBridge>.fromOpaque(data!).takeUnretainedValue()
            MainActor.assumeIsolated { bridge.service?.isOwned = false }
        }, Unmanaged.passRetained(bridge).toOpaque(), { data in
            Unmanaged<MPRISBridge>.fromOpaque(data!).release()
        })
    }

    /// Releases the name and unregisters the objects.
    public func stop() {
        if let connection {
            for id in registrations { g_dbus_connection_unregister_object(connection, id) }
            g_dbus_connection_flush_sync(connection, nil, nil)
        }
        registrations.removeAll()
        if ownerID != 0 { g_bus_unown_name(ownerID); ownerID = 0 }
        if let connection { g_object_unref(UnsafeMutableRawPointer(connection)); self.connection = nil }
        if let nodeInfo { g_dbus_node_info_unref(nodeInfo); self.nodeInfo = nil }
        bridge.service = nil
        isOwned = false
    }

    private func busAcquired(_ c: OpaquePointer?) {
        guard let c, let nodeInfo else { return }
        connection = c
        g_object_ref(UnsafeMutableRawPointer(c))
        for name in [Self.rootInterface, Self.playerInterface] {
            guard let info = g_dbus_node_info_lookup_interface(nodeInfo, name) else { continue }
            let data = Unmanaged.passRetained(bridge).toOpaque()
            var error: UnsafeMutablePointer<GError>?
            let id = g_dbus_connection_register_object(c, Self.objectPath, info, vtable, data, { data in
                Unmanaged<MPRISBridge>.fromOpaque(data!).release()
            }, &error)
            if let error {
                Log.say("MPRIS: \(String(cString: error.pointee.message))")
                g_error_free(error)
            }
            if id != 0 { registrations.append(id) }
        }
        _ = changedPlayerProperties()  // the baseline
    }

    // MARK: Events

    /// Tells the service about an event: emits Seeked and PropertiesChanged as needed.
    public func handle(_ event: PlayerEvent) {
        guard let connection else { return }
        if case .seeked(let position) = event {
            emit(connection, interface: "org.mpris.MediaPlayer2.Player", signal: "Seeked",
                 tuple([g_variant_new_int64(BoundedNumber.microseconds(position))]))
        }
        notifyChanges()
    }

    /// Emits PropertiesChanged for the notified properties whose values changed.
    public func notifyChanges() {
        guard let connection else { return }
        let changed = changedPlayerProperties()
        guard !changed.isEmpty else { return }
        let dict = vardict(changed.map { ($0, playerProperty($0)!) })
        let body = tuple([g_variant_new_string(Self.playerInterface), dict, g_variant_new_strv(nil, 0)])
        emit(connection, interface: "org.freedesktop.DBus.Properties", signal: "PropertiesChanged", body)
    }

    static let notifiedProperties = ["PlaybackStatus", "LoopStatus", "Rate", "Shuffle", "Metadata", "Volume",
                                     "CanGoNext", "CanGoPrevious", "CanPlay", "CanPause", "CanSeek"]

    private func changedPlayerProperties() -> [String] {
        var changed: [String] = []
        for name in Self.notifiedProperties {
            guard let v = playerProperty(name) else { continue }
            g_variant_ref_sink(v)
            let text = g_variant_print(v, 1).map { p -> String in defer { g_free(p) }; return String(cString: p) } ?? ""
            g_variant_unref(v)
            if lastSent[name] != text {
                lastSent[name] = text
                changed.append(name)
            }
        }
        return changed
    }

    private func emit(_ c: OpaquePointer, interface: String, signal: String, _ body: OpaquePointer?) {
        var error: UnsafeMutablePointer<GError>?
        g_dbus_connection_emit_signal(c, nil, Self.objectPath, interface, signal, body, &error)
        if let error { g_error_free(error) }
    }

    // MARK: Methods

    private func call(_ interface: String, _ method: String, _ params: OpaquePointer?, _ invocation: OpaquePointer?) {
        let t = target
        func arg(_ i: Int) -> OpaquePointer? { g_variant_get_child_value(params, gsize(i)) }
        switch (interface, method) {
        case (Self.rootInterface, "Raise"): break
        case (Self.rootInterface, "Quit"): t.quit(status: 0)
        case (Self.playerInterface, "Next"): _ = t.next()
        case (Self.playerInterface, "Previous"): _ = t.previous()
        case (Self.playerInterface, "Pause"): t.pause()
        case (Self.playerInterface, "PlayPause"): t.toggle()
        case (Self.playerInterface, "Stop"): t.stop()
        case (Self.playerInterface, "Play"): t.play()
        case (Self.playerInterface, "Seek"):
            guard let a = arg(0) else { break }
            let offset = Double(g_variant_get_int64(a)) / 1e6
            g_variant_unref(a)
            let s = t.snapshot
            guard canSeek(s) else { break }
            let to = s.position + offset
            if s.liveWindow == nil, let d = s.duration, to > d { _ = t.next() } else { t.seek(to: max(0, to), mode: .accurate) }
        case (Self.playerInterface, "SetPosition"):
            guard let a = arg(0), let b = arg(1) else { break }
            let track = String(cString: g_variant_get_string(a, nil))
            let position = Double(g_variant_get_int64(b)) / 1e6
            g_variant_unref(a); g_variant_unref(b)
            let s = t.snapshot
            guard canSeek(s), track == trackID(s), position >= 0, position <= (length(s) ?? .infinity) else { break }
            t.seek(to: position, mode: .accurate)
        case (Self.playerInterface, "OpenUri"):
            guard let a = arg(0) else { break }
            let uri = String(cString: g_variant_get_string(a, nil))
            g_variant_unref(a)
            guard MediaLocator.hasScheme(uri) else {
                g_dbus_method_invocation_return_dbus_error(invocation, "org.freedesktop.DBus.Error.InvalidArgs", "OpenUri needs a URI such as file:///… or https://…")
                return
            }
            t.load(uri, options: [:])
        default:
            g_dbus_method_invocation_return_dbus_error(invocation, "org.freedesktop.DBus.Error.UnknownMethod", "No method \(method) on \(interface)")
            return
        }
        g_dbus_method_invocation_return_value(invocation, nil)
    }

    // MARK: Properties

    private func property(_ interface: String, _ name: String) -> OpaquePointer? {
        interface == Self.rootInterface ? rootProperty(name) : playerProperty(name)
    }

    private func rootProperty(_ name: String) -> OpaquePointer? {
        switch name {
        case "CanQuit": g_variant_new_boolean(1)
        case "CanRaise", "Fullscreen", "CanSetFullscreen", "HasTrackList": g_variant_new_boolean(0)
        case "Identity": g_variant_new_string(identity)
        case "DesktopEntry": g_variant_new_string("io.github.reel_player.Reel")  // the desktop file's name
        case "SupportedUriSchemes": strv(["file", "http", "https"])
        case "SupportedMimeTypes": strv(Self.mimeTypes)
        default: nil
        }
    }

    public static let mimeTypes = ["video/mp4", "video/x-matroska", "video/webm", "video/quicktime", "video/x-msvideo", "video/mpeg",
                                   "video/ogg", "audio/mp4", "audio/mpeg", "audio/ogg", "audio/flac", "audio/x-wav",
                                   "application/vnd.apple.mpegurl", "application/x-mpegurl", "audio/x-mpegurl", "audio/x-scpls",
                                   "application/xspf+xml"]

    func playbackStatus(_ s: PlaybackSnapshot) -> String {
        if s.index == nil || s.isStopped { return "Stopped" }
        return s.wantsToPlay ? "Playing" : "Paused"
    }

    /// Seekable with a duration, or a live item with a window (positions are then on its scale).
    private func canSeek(_ s: PlaybackSnapshot) -> Bool { s.index != nil && (s.liveWindow != nil || (s.mediaInfo.isSeekable && s.duration != nil)) }

    /// The length a seek bar spans: the duration, or a live item's window.
    private func length(_ s: PlaybackSnapshot) -> Double? { s.duration ?? s.liveWindow?.upperBound }
    private func trackID(_ s: PlaybackSnapshot) -> String { s.index.map { "/org/reel/Track/\($0)" } ?? Self.noTrack }

    private func playerProperty(_ name: String) -> OpaquePointer? {
        let s = target.snapshot
        switch name {
        case "PlaybackStatus": return g_variant_new_string(playbackStatus(s))
        case "LoopStatus": return g_variant_new_string((try? properties.get("loop", in: s).ipcString) ?? s.loop.rawValue)
        case "Rate": return g_variant_new_double((try? properties.get("speed", in: s).ipcNumber) ?? s.rate)
        case "Shuffle": return g_variant_new_boolean(((try? properties.get("shuffle", in: s).ipcBool) ?? s.shuffle) ? 1 : 0)
        case "Volume":
            let muted = (try? properties.get("mute", in: s).ipcBool) ?? s.muted
            return g_variant_new_double(muted ? 0 : ((try? properties.get("volume", in: s).ipcNumber).map { $0 / 100 } ?? s.volume))
        case "Position": return g_variant_new_int64(BoundedNumber.microseconds(s.position))
        case "MinimumRate": return g_variant_new_double(-BoundedNumber.rateMagnitude.upperBound)
        case "MaximumRate": return g_variant_new_double(BoundedNumber.rateMagnitude.upperBound)
        case "CanGoNext": return g_variant_new_boolean(s.hasNext ? 1 : 0)
        case "CanGoPrevious": return g_variant_new_boolean(s.hasPrevious ? 1 : 0)
        case "CanPlay", "CanPause": return g_variant_new_boolean(s.items.isEmpty ? 0 : 1)
        case "CanSeek": return g_variant_new_boolean(canSeek(s) ? 1 : 0)
        case "CanControl": return g_variant_new_boolean(1)
        case "Metadata":
            var entries: [(String, OpaquePointer?)] = [("mpris:trackid", g_variant_new_object_path(trackID(s)))]
            if let current = s.current {
                if let d = length(s) { entries.append(("mpris:length", g_variant_new_int64(BoundedNumber.microseconds(d)))) }
                entries.append(("xesam:title", g_variant_new_string(s.mediaInfo.title ?? current.title ?? MediaLocator.displayName(of: current.uri))))
                entries.append(("xesam:url", g_variant_new_string(Redactor.redactURL(current.uri))))
                if let art = coverArt.url(for: s.coverArt) { entries.append(("mpris:artUrl", g_variant_new_string(art))) }
            }
            return vardict(entries)
        default: return nil
        }
    }

    private func setProperty(_ interface: String, _ name: String, _ value: OpaquePointer?) -> Bool {
        let v = value
        let p = properties
        switch name {
        case "Volume":
            let volume = g_variant_get_double(v)
            guard volume.isFinite else { return false }
            try? p.set("volume", .double(min(IPCVolume.range.upperBound, max(0, volume * 100))))
            if (try? p.get("mute").ipcBool) == true { try? p.set("mute", .bool(false)) }
        case "Rate":
            let r = g_variant_get_double(v)
            // MPRIS: 0 means pause; anything else is kept to Reel's one rate range (1/64 to 64).
            if r == 0 { target.pause() } else if let r = BoundedNumber.clampedRate(r) { try? p.set("speed", .double(r)) }
        case "LoopStatus":
            let text = String(cString: g_variant_get_string(v, nil))
            guard PlaybackSnapshot.LoopMode(rawValue: text) != nil, (try? p.set("loop", .string(text))) != nil else { return false }
        case "Shuffle": try? p.set("shuffle", .bool(g_variant_get_boolean(v) != 0))
        case "Fullscreen": break
        default: return false
        }
        notifyChanges()
        return true
    }

    // MARK: GVariant helpers (all return floating references, as GDBus expects)

    private func tuple(_ items: [OpaquePointer?]) -> OpaquePointer? {
        var children = items
        return children.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) }
    }

    private func vardict(_ entries: [(String, OpaquePointer?)]) -> OpaquePointer? {
        let type = g_variant_type_new("{sv}")
        defer { g_variant_type_free(type) }
        var children = entries.map { g_variant_new_dict_entry(g_variant_new_string($0.0), g_variant_new_variant($0.1)) }
        return children.withUnsafeMutableBufferPointer { g_variant_new_array(type, $0.baseAddress, gsize($0.count)) }
    }

    private func strv(_ items: [String]) -> OpaquePointer? {
        let cStrings = items.map { strdup($0) }
        defer { cStrings.forEach { free($0) } }
        var pointers = cStrings.map { UnsafePointer<gchar>($0) }
        return pointers.withUnsafeMutableBufferPointer { g_variant_new_strv($0.baseAddress, gssize($0.count)) }
    }

    static let introspection = """
    <node>
      <interface name="org.mpris.MediaPlayer2">
        <method name="Raise"/>
        <method name="Quit"/>
        <property name="CanQuit" type="b" access="read"/>
        <property name="Fullscreen" type="b" access="readwrite"/>
        <property name="CanSetFullscreen" type="b" access="read"/>
        <property name="CanRaise" type="b" access="read"/>
        <property name="HasTrackList" type="b" access="read"/>
        <property name="Identity" type="s" access="read"/>
        <property name="DesktopEntry" type="s" access="read"/>
        <property name="SupportedUriSchemes" type="as" access="read"/>
        <property name="SupportedMimeTypes" type="as" access="read"/>
      </interface>
      <interface name="org.mpris.MediaPlayer2.Player">
        <method name="Next"/>
        <method name="Previous"/>
        <method name="Pause"/>
        <method name="PlayPause"/>
        <method name="Stop"/>
        <method name="Play"/>
        <method name="Seek"><arg direction="in" name="Offset" type="x"/></method>
        <method name="SetPosition"><arg direction="in" name="TrackId" type="o"/><arg direction="in" name="Position" type="x"/></method>
        <method name="OpenUri"><arg direction="in" name="Uri" type="s"/></method>
        <signal name="Seeked"><arg name="Position" type="x"/></signal>
        <property name="PlaybackStatus" type="s" access="read"/>
        <property name="LoopStatus" type="s" access="readwrite"/>
        <property name="Rate" type="d" access="readwrite"/>
        <property name="Shuffle" type="b" access="readwrite"/>
        <property name="Metadata" type="a{sv}" access="read"/>
        <property name="Volume" type="d" access="readwrite"/>
        <property name="Position" type="x" access="read"/>
        <property name="MinimumRate" type="d" access="read"/>
        <property name="MaximumRate" type="d" access="read"/>
        <property name="CanGoNext" type="b" access="read"/>
        <property name="CanGoPrevious" type="b" access="read"/>
        <property name="CanPlay" type="b" access="read"/>
        <property name="CanPause" type="b" access="read"/>
        <property name="CanSeek" type="b" access="read"/>
        <property name="CanControl" type="b" access="read"/>
      </interface>
    </node>
    """
}
