import CGStreamer
import CReelFrame
import Foundation
import ReelCore
import Synchronization

/// Owns the one reference to playbin3 and the callback registrations on it. Callbacks receive a
/// retained `CallbackBridge` as user_data (released by GLib's destroy notify); none captures context.
final class PipelineHandle: @unchecked Sendable {
    let element: UnsafeMutablePointer<GstElement>
    private var bus: UnsafeMutablePointer<GstBus>?
    private var signalIDs: [UInt] = []
    private var isShutDown = false
    /// Whether an item's input has drained towards uridecodebin3's switch (`reel_gapless_guard.h`,
    /// `Workarounds/SeekDuringGaplessSwitch.swift`). Released with the pipeline.
    let gaplessWatch: OpaquePointer

    /// Adopts a ref-sunk element (transfer full).
    init(_ element: UnsafeMutablePointer<GstElement>) {
        self.element = element
        gaplessWatch = reel_gapless_watch_new()
    }

    /// An urisourcebin of this pipeline has drained since the last switch reached the sinks.
    var gaplessInputDrained: Bool { reel_gapless_watch_drained(gaplessWatch) != 0 }

    /// A switch reached the sinks: the drained input it came from is gone.
    func resetGaplessWatch() { reel_gapless_watch_reset(gaplessWatch) }

    func attach(bridge: CallbackBridge) {
        bus = gst_element_get_bus(element)  // transfer full, released in shutdown
        gst_bus_add_watch_full(bus, Int32(G_PRIORITY_DEFAULT), { _, message, data in
            guard let msg = message, let data else { return 1 }
            let bridge = Unmanaged<CallbackBridge>.fromOpaque(data).takeUnretainedValue()
            // GLib runs bus watches on the default main context, which is the main thread.
            nonisolated(unsafe) let message = msg
            MainActor.assumeIsolated { bridge.player?.handle(message) }
            return 1
        }, Unmanaged.passRetained(bridge).toOpaque(), { data in
            Unmanaged<CallbackBridge>.fromOpaque(data!).release()
        })

        // about-to-finish: a streaming thread. Touch only the Mutex state; set the next URI.
        let finishData = Unmanaged.passRetained(bridge.shared).toOpaque()
        signalIDs.append(reel_connect_about_to_finish(element, { playbin, data in
            guard let playbin, let data else { return }
            let shared = Unmanaged<StreamingShared>.fromOpaque(data).takeUnretainedValue()
            let next = shared.state.withLock { s -> String? in
                guard !s.reverse, let n = s.next else { return nil }
                s.next = nil
                s.switched = n
                return n.playedURI
            }
            if let next { reel_set_string(playbin, "uri", next) }
        }, finishData))

        // source-setup: a streaming thread. Put the item's headers and user agent on HTTP sources.
        let setupData = Unmanaged.passRetained(bridge.shared).toOpaque()
        signalIDs.append(reel_connect_source_setup(element, { _, source, data in
            guard let source, let data else { return }
            let shared = Unmanaged<StreamingShared>.fromOpaque(data).takeUnretainedValue()
            ContentGuard.guardSource(source, refusing: shared.state.withLock { $0.unroutedManifests })
            let (headers, agent, timeout) = shared.state.withLock { ($0.headers, $0.userAgent, $0.networkTimeout) }
            if reel_has_property(source, "user-agent") != 0 { reel_set_string(source, "user-agent", agent) }
            // A stalled server fails the item in bounded time (souphttpsrc's blocking-I/O timeout).
            if reel_has_property(source, "timeout") != 0 {
                reel_set_uint(source, "timeout", timeout)
                PipelineHandle.watchActivity(of: source, shared: shared)
            }
            for (name, value) in headers { reel_source_add_header(source, name, value) }
        }, setupData))
        // element-setup: any thread. urisourcebin leaves parsing to decodebin3
        // (Workarounds/ParsingInDecodebin.swift); adaptive demuxers get the bitrate cap and are
        // remembered.
        let elementData = Unmanaged.passRetained(bridge.shared).toOpaque()
        signalIDs.append(reel_connect_element_setup(element, { _, added, data in
            guard let added, let data else { return }
            ParsingInDecodebin.configure(added)
            AudioStreamRole.configure(added)
            guard BitrateCap.isAdaptiveDemuxer(added) else { return }
            let shared = Unmanaged<StreamingShared>.fromOpaque(data).takeUnretainedValue()
            BitrateCap.adopt(added, shared: shared)
        }, elementData))
        // One stream of a gapless next item at a time into uridecodebin3's switch, and each
        // item's input watched for its end (`reel_gapless_guard.h`).
        signalIDs.append(reel_connect_element_setup(element, { _, added, data in
            guard let added, let data else { return }
            reel_gapless_guard_attach(added, OpaquePointer(data))
        }, UnsafeMutableRawPointer(gaplessWatch)))
        retainedShared = [finishData, setupData, elementData]
    }

    private var retainedShared: [UnsafeMutableRawPointer] = []
    /// The sinks Reel gave playbin3 ("audio-sink", "video-sink"), a reference each, released with
    /// the pipeline. Read from here, not from playbin3's properties: its getter takes playbin3's
    /// lock, which a select-streams in flight holds while a paused sink waits in preroll, so the
    /// main thread blocked on it before sending the flushing seek that would have freed them
    /// (two track selections in a row while paused: `reel check --scenario`, caught with gdb).
    private var installedSinks: [String: UnsafeMutableRawPointer] = [:]

    /// Keeps `sink` as the one playbin3 has under `property`.
    func remember(sink: UnsafeMutableRawPointer, as property: String) {
        gst_object_ref(sink)
        if let old = installedSinks.updateValue(sink, forKey: property) { gst_object_unref(old) }
    }

    /// The sink under `property` (a new reference, as `reel_get_object` gives): the one Reel
    /// installed, else playbin3's own.
    func sink(_ property: String) -> UnsafeMutableRawPointer? {
        if let sink = installedSinks[property] {
            gst_object_ref(sink)
            return sink
        }
        return reel_get_object(element, property)
    }

    /// Notes the time of every buffer the HTTP source pushes (streaming thread: Mutex state only),
    /// so that the player can tell a stall (silence for the timeout) from a reset.
    private static func watchActivity(of source: UnsafeMutablePointer<GstElement>, shared: StreamingShared) {
        shared.state.withLock {
            $0.httpSource = UInt(bitPattern: source)
            $0.httpSourceActivity = .now
        }
        guard let pad = gst_element_get_static_pad(source, "src") else { return }  // transfer full
        defer { gst_object_unref(pad) }
        let types = GST_PAD_PROBE_TYPE_BUFFER.rawValue | GST_PAD_PROBE_TYPE_BUFFER_LIST.rawValue
        gst_pad_add_probe(pad, GstPadProbeType(rawValue: types), { _, _, data in
            guard let data else { return GST_PAD_PROBE_OK }
            Unmanaged<StreamingShared>.fromOpaque(data).takeUnretainedValue().state.withLock { $0.httpSourceActivity = .now }
            return GST_PAD_PROBE_OK
        }, Unmanaged.passRetained(shared).toOpaque(), { data in
            Unmanaged<StreamingShared>.fromOpaque(data!).release()
        })
    }

    /// Detaches Reel from the pipeline at once (no more bus messages or callbacks reach the
    /// player), then takes it to NULL and drops it on a reaper thread: playbin3 in 1.22 can
    /// deadlock in that state change (the main thread waits for typefind's task to stop while
    /// typefind waits in urisourcebin's `type_found` for a lock the state change holds). A
    /// deadlocked reaper then costs one thread and one pipeline, never the main thread.
    func shutdown() {
        guard let doomed = detach() else { return }
        Thread.detachNewThread {
            gst_element_set_state(doomed.element, GST_STATE_NULL)
            // Callbacks in flight held these; none can start after the NULL state.
            for p in doomed.retained { Unmanaged<StreamingShared>.fromOpaque(p).release() }
            for sink in doomed.sinks { gst_object_unref(sink) }
            gst_object_unref(doomed.element)
            reel_gapless_watch_unref(doomed.watch)
        }
    }

    /// Detaches Reel from a pipeline that stopped at an item's end without EOS (see Player's
    /// end-stall watchdog) and keeps it, untouched, until the process exits: taking such a
    /// playbin3 to NULL crashes GStreamer 1.22 (a NULL dereference in `gst_object_replace` under
    /// uridecodebin3's state change, seen in one teardown in two). Also used for a pipeline that
    /// never prerolled a good file (Player's preroll watchdog), whose streaming threads are
    /// blocked. Their threads are parked, so the cost is memory, about one pipeline's worth each.
    func abandon() {
        guard let doomed = detach() else { return }
        PipelineHandle.abandoned.withLock { $0.append(doomed) }
    }

    /// Pipelines given up by `abandon`, kept referenced (never unreffed, never changed in state).
    private static let abandoned = Mutex<[Doomed]>([])

    /// Disconnects the signals and the bus watch; returns what the caller now owns, once.
    private func detach() -> Doomed? {
        guard !isShutDown else { return nil }
        isShutDown = true
        for id in signalIDs { reel_signal_disconnect(element, id) }
        signalIDs.removeAll()
        if let bus {
            gst_bus_remove_watch(bus)
            gst_object_unref(bus)
            self.bus = nil
        }
        let doomed = Doomed(element: element, retained: retainedShared, watch: gaplessWatch, sinks: Array(installedSinks.values))
        retainedShared.removeAll()
        installedSinks.removeAll()
        return doomed
    }

    deinit {
        shutdown()
    }
}

/// A pipeline on its way out, handed to the reaper thread (which alone touches it).
private struct Doomed: @unchecked Sendable {
    let element: UnsafeMutablePointer<GstElement>
    let retained: [UnsafeMutableRawPointer]
    let watch: OpaquePointer
    let sinks: [UnsafeMutableRawPointer]
}

extension PipelineHandle {
    /// The decoders inside the pipeline now (factory names), and whether the video one is hardware.
    func decoders() -> (video: String?, audio: String?, hardware: Bool?) {
        var video: UnsafeMutablePointer<gchar>?, audio: UnsafeMutablePointer<gchar>?
        var hardware: gboolean = 0
        reel_bin_decoders(element, &video, &audio, &hardware)
        defer { g_free(video); g_free(audio) }
        let v = video.map { String(cString: $0) }
        return (v, audio.map { String(cString: $0) }, v == nil ? nil : hardware != 0)
    }
}
