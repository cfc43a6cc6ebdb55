import CGStreamer
import Foundation
import ReelCore
import Synchronization
import ReelGLib

// GStreamer 1.22 workaround: a local item that never prerolls.
//
// Seen: parsebin swallowed qtdemux's error on a damaged file (about 1 run in 20, gst-launch-1.0
// too), and on a loaded machine playbin3 now and then never prerolled a good file: no error,
// typefind, qtdemux and multiqueue tasks all parked (caught with gdb in a hung CI test; about 1
// load in 150 with both cores busy). What to do is `PrerollVerdict` (ReelCore, tested by table);
// this file arms the timer, probes the file off the main thread and carries the verdict out.
extension Player {
    /// GStreamer 1.22's parsebin can swallow a demuxer's error posted while it is still setting
    /// the demuxer up (qtdemux on a damaged file, now and then): the item then never prerolls
    /// and never fails. A local file that has not prerolled within `localPrerollTimeout` fails
    /// as damaged. A whole file over HTTP gets the same watch once its bytes have come
    /// (`onNetworkPrerollWatchdog`); a slow server is bounded by the HTTP source's timeout.
    func armPrerollWatchdog() {
        cancelPrerollWatchdog()
        guard configuration.localPrerollTimeout > 0 else { return }
        let ms = UInt32(min(3_600_000, configuration.localPrerollTimeout * 1000))
        timers.prerollWatchdog = g_timeout_add_full(Int32(G_PRIORITY_DEFAULT), ms, { data in
            let bridge = Unmanaged<CallbackBridge>.fromOpaque(data!).takeUnretainedValue()
            MainActor.assumeIsolated { bridge.player?.onPrerollWatchdog() }
            return 0
        }, Unmanaged.passRetained(bridge).toOpaque(), { data in Unmanaged<CallbackBridge>.fromOpaque(data!).release() })
    }

    func cancelPrerollWatchdog() {
        timers.remove(\.prerollWatchdog)
    }

    /// The watchdog's second opinion: the file is probed on another thread (GstDiscoverer, its
    /// own pipeline). A file the probe opens while the pipeline, which had a head start, has still
    /// not prerolled is first started again on a fresh pipeline (1.22's playbin3 now and then
    /// never prerolls a good local file on a loaded machine); after that it is taken as only
    /// slow and gets more time, up to `PrerollVerdict.maximumExtensions` times. One the probe cannot open
    /// fails with the probe's error.
    func onPrerollWatchdog() {
        timers.prerollWatchdog = 0  // it has fired: GLib removes it
        guard let uri = currentURI, !prerolled, requestedTarget == .paused || requestedTarget == .playing else { return }
        if case .failed = status { return }
        let network = MediaLocator.localPath(of: uri) == nil
        if network, !onNetworkPrerollWatchdog(uri) { return }
        // A hardware decoder that gives no picture within the bound: the item again in software.
        let decoders = pipeline.decoders()
        if decoders.hardware == true, let decoder = decoders.video,
           features.first(HardwareDecoders.self)?.fallBack(decoder: decoder, reason: "no picture within \(Int(configuration.localPrerollTimeout)) s", host: self) == true { return }
        let generation = lifecycle.generation, bridge = self.bridge
        let timeout = max(2, min(10, configuration.localPrerollTimeout))
        Self.probesInFlight.withLock { $0 += 1 }
        Thread.detachNewThread {
            let verdict = MediaProbe.probe(uri, timeout: timeout).error
            Self.probesInFlight.withLock { $0 -= 1 }
            MainQueue.shared.async { bridge?.player?.onPrerollProbe(verdict, generation: generation, network: network) }
        }
    }

    /// A whole file over HTTP (not a playlist or a manifest) that has not prerolled: the same
    /// 1.22 stall as a local file's (typefind and qtdemux parked, the HTTP source idle; seen in
    /// GaplessTests, 2 runs of 4 with four such tests at once on 2 cores, after queue2's 100 % and
    /// after its 0 %). While bytes still arrive it only waits; once the source has been idle a
    /// second, the URI is probed on a pipeline of its own: when that opens it, the item is started
    /// again (`PrerollVerdict`, as for a local file); when it does not, the server is the one
    /// stalling, and that is the HTTP source's timeout's to report.
    private func onNetworkPrerollWatchdog(_ uri: String) -> Bool {
        guard !["m3u8", "m3u", "mpd"].contains(URL(string: uri)?.pathExtension.lowercased() ?? "") else { return false }
        let lastBytes = shared.state.withLock { $0.httpSourceActivity }
        let idle = lastBytes.map { ContinuousClock.now - $0 > .seconds(1) } ?? true
        if !idle {
            armPrerollWatchdog()
            return false
        }
        return true
    }

    /// Watchdog probes still running (each on its own thread, inside GStreamer).
    nonisolated static let probesInFlight = Mutex(0)

    /// Waits (at most `timeout` seconds) for watchdog probes to finish, so that a process that
    /// ends right after a probe started does not exit with a thread inside GStreamer. For the
    /// process's exit path (never the main loop's work: it blocks).
    public nonisolated static func awaitBackgroundProbes(timeout: Double) {
        let deadline = ContinuousClock.now + .milliseconds(Int64(timeout * 1000))
        while probesInFlight.withLock({ $0 }) > 0, ContinuousClock.now < deadline { usleep(5_000) }
    }


    /// Starts the current item again on a fresh pipeline; the stuck one is abandoned (never
    /// taken to NULL: its streaming threads are blocked). Nothing is emitted: for observers it is
    /// the same load, later. A deferred or prepared next item, a start position and the headers
    /// carry over.
    func restartPreroll(_ uri: String) {
        prerollRestarts += 1
        let next = lifecycle.deferredNext ?? shared.state.withLock { $0.next }
        replacePipeline(abandoningOld: true)
        lifecycle.awaitingOwnStreamStart = true
        lifecycle.deferredNext = next
        collectionInfo = MediaInfo()
        videoDisplaySize = nil
        forgetStreamingSideItem()
        reel_set_string(pipeline.element, "uri", uri)
        lifecycle.hasHadItem = true
        armPrerollWatchdog()
        applyDesiredState()
    }

    func onPrerollProbe(_ probeError: PlaybackError?, generation: Int, network: Bool = false) {
        guard generation == lifecycle.generation, let uri = currentURI, !prerolled else { return }
        if case .failed = status { return }
        if network, probeError != nil {  // the server does not answer the probe either: not ours to judge
            armPrerollWatchdog()
            return
        }
        Log.debug(.engine, .info, "preroll watchdog: \(uri) opens on its own and has not prerolled after \(Int(configuration.localPrerollTimeout)) s")
        switch PrerollVerdict.decide(probeOpened: probeError == nil, restarts: prerollRestarts, extensions: prerollExtensions) {
        case .restart:
            restartPreroll(uri)
            return
        case .extend:
            prerollExtensions += 1
            armPrerollWatchdog()
            return
        case .fail:
            break
        }
        let path = MediaLocator.localPath(of: uri)
        let size = path.flatMap { (try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? NSNumber)?.int64Value }
        fail(probeError ?? ErrorMapper.map(domain: ErrorMapper.Domain.stream.quark, code: 9,
                                           message: "The media did not start within \(Int(configuration.localPrerollTimeout)) s", debug: "preroll watchdog",
                                           context: .init(uri: uri, isLocalFile: !network, localFileSize: size)))
    }
}
