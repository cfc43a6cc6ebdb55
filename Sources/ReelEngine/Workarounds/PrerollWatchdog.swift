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
// this component arms the timer at each load, probes the file off the main thread and carries the
// verdict out through the player (`FeatureHost.restartLoad`, `fail`).
@MainActor
final class PrerollWatchdog: PlayerFeature {
    /// `PlayerConfiguration.localPrerollTimeout` (0: off).
    private(set) var timeout: Double = 5
    /// The arming in force: a timer that fires for an older one does nothing.
    private var armed = 0
    private(set) var isArmed = false
    /// What the watchdog did for the current item (`PrerollVerdict`).
    private(set) var restarts = 0
    private(set) var extensions = 0
    /// The player the timer and the probe answer to.
    private weak var host: (any FeatureHost)?
    /// When the current item was loaded (a stream's start is bounded from there).
    private var loadedAt = ContinuousClock.now
    /// A stream (an HLS playlist, a DASH manifest) that has not started this many seconds after
    /// its load fails as a timeout: hlsdemux2 waits for ever on a live playlist whose segments
    /// never come (the gateway answers each as a gap), and nothing else ends it.
    static let streamStartDeadline: Double = 30

    func configure(_ configuration: PlayerConfiguration) { timeout = configuration.localPrerollTimeout }

    func itemStarted(_ item: PlaybackItem, switched: Bool, host: FeatureHost) {
        guard !switched else { return }  // a gapless switch streams already: nothing to preroll
        restarts = 0
        extensions = 0
        loadedAt = .now
        arm(host: host)
    }

    func loadRestarted(nextHanded: PlaybackItem?, host: FeatureHost) { arm(host: host) }
    func readying(host: FeatureHost) { cancel() }
    func itemUnloaded(host: FeatureHost) { cancel() }
    func shutdown(host: FeatureHost) { cancel() }

    /// GStreamer 1.22's parsebin can swallow a demuxer's error posted while it is still setting
    /// the demuxer up (qtdemux on a damaged file, now and then): the item then never prerolls
    /// and never fails. A local file that has not prerolled within `localPrerollTimeout` fails
    /// as damaged. A whole file over HTTP gets the same watch once its bytes have come
    /// (`networkSourceIdle`); a slow server is bounded by the HTTP source's timeout.
    func arm(host: FeatureHost) {
        cancel()
        guard timeout > 0 else { return }
        armed += 1
        isArmed = true
        self.host = host
        let token = armed
        MainQueue.shared.after(min(3600, timeout)) { [self] in
            guard token == armed, isArmed else { return }
            isArmed = false
            fired()
        }
    }

    func cancel() { isArmed = false }

    /// The watchdog's second opinion: the file is probed on another thread (GstDiscoverer, its
    /// own pipeline). A file the probe opens while the pipeline, which had a head start, has still
    /// not prerolled is first started again on a fresh pipeline (1.22's playbin3 now and then
    /// never prerolls a good local file on a loaded machine); after that it is taken as only
    /// slow and gets more time, up to `PrerollVerdict.maximumExtensions` times. One the probe
    /// cannot open fails with the probe's error.
    private func fired() {
        guard let host, let uri = host.currentURI, !host.isPrerolled, host.wantsPipelineRunning, !host.hasFailed else { return }
        let network = MediaLocator.localPath(of: uri) == nil
        if network, Self.isStream(uri) { return streamNotStarted(uri, host: host) }
        if network, !networkSourceIdle(uri, host: host) { return }
        // Another feature may take it (a hardware decoder that gives no picture: the item again in software).
        if host.offerNoPicture(reason: "no picture within \(Int(timeout)) s") { return }
        let generation = host.loadGeneration
        let probeTimeout = max(2, min(10, timeout))
        Self.probesInFlight.withLock { $0 += 1 }
        Thread.detachNewThread { [self] in
            let verdict = MediaProbe.probe(uri, timeout: probeTimeout).error
            Self.probesInFlight.withLock { $0 -= 1 }
            MainQueue.shared.async { self.probed(verdict, generation: generation, network: network) }
        }
    }

    /// A whole file over HTTP (not a playlist or a manifest) that has not prerolled: the same
    /// 1.22 stall as a local file's (typefind and qtdemux parked, the HTTP source idle; seen in
    /// GaplessTests, 2 runs of 4 with four such tests at once on 2 cores, after queue2's 100 % and
    /// after its 0 %). While bytes still arrive it only waits; once the source has been idle a
    /// second, the URI is probed on a pipeline of its own: when that opens it, the item is started
    /// again (`PrerollVerdict`, as for a local file); when it does not, the server is the one
    /// stalling, and that is the HTTP source's timeout's to report.
    private func networkSourceIdle(_ uri: String, host: FeatureHost) -> Bool {
        let idle = host.httpSourceLastActivity.map { ContinuousClock.now - $0 > .seconds(1) } ?? true
        if !idle {
            arm(host: host)
            return false
        }
        return true
    }

    /// A playlist or a manifest: its demuxer fetches on its own, so only the time since its load
    /// tells a stream that will not start (`streamStartDeadline`).
    static func isStream(_ uri: String) -> Bool { ["m3u8", "m3u", "mpd"].contains(URL(string: uri)?.pathExtension.lowercased() ?? "") }

    private func streamNotStarted(_ uri: String, host: FeatureHost) {
        let waited = Double((ContinuousClock.now - loadedAt).components.seconds)
        guard waited >= Self.streamStartDeadline else { return arm(host: host) }
        Log.debug(.engine, .info, "preroll watchdog: the stream \(Redactor.redactURL(uri)) has not started \(Int(waited)) s after its load")
        host.fail(PlaybackError(kind: .timeout, message: String(format: tr("No media arrived within %d s of opening the stream."), Int(Self.streamStartDeadline)),
                                uri: uri))
    }

    private func probed(_ probeError: PlaybackError?, generation: Int, network: Bool) {
        guard let host, generation == host.loadGeneration, let uri = host.currentURI, !host.isPrerolled, !host.hasFailed else { return }
        if network, probeError != nil {  // the server does not answer the probe either: not ours to judge
            arm(host: host)
            return
        }
        Log.debug(.engine, .info, "preroll watchdog: \(uri) opens on its own and has not prerolled after \(Int(timeout)) s")
        switch PrerollVerdict.decide(probeOpened: probeError == nil, restarts: restarts, extensions: extensions) {
        case .restart:
            restarts += 1
            Log.debug(.engine, .warning, "workaround preroll-watchdog: \(uri) started again on a fresh playbin3")
            host.restartLoad()
        case .extend:
            extensions += 1
            arm(host: host)
        case .fail:
            let path = MediaLocator.localPath(of: uri)
            let size = path.flatMap { (try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? NSNumber)?.int64Value }
            host.fail(probeError ?? ErrorMapper.map(domain: ErrorMapper.Domain.stream.quark, code: 9,
                                                    message: "The media did not start within \(Int(timeout)) s", debug: "preroll watchdog",
                                                    context: .init(uri: uri, isLocalFile: !network, localFileSize: size)))
        }
    }

    /// Watchdog probes still running (each on its own thread, inside GStreamer).
    nonisolated static let probesInFlight = Mutex(0)
}

extension Player {
    /// Waits (at most `timeout` seconds) for the preroll watchdog's probes to finish, so that a
    /// process that ends right after a probe started does not exit with a thread inside
    /// GStreamer. For the process's exit path (never the main loop's work: it blocks).
    public nonisolated static func awaitBackgroundProbes(timeout: Double) {
        let deadline = ContinuousClock.now + .milliseconds(Int64(timeout * 1000))
        while PrerollWatchdog.probesInFlight.withLock({ $0 }) > 0, ContinuousClock.now < deadline { usleep(5_000) }
    }

    /// Starts the current item again on a fresh pipeline; the stuck one is abandoned (never
    /// taken to NULL: its streaming threads are blocked). Nothing is emitted: for observers it is
    /// the same load, later. A start position and the headers carry over, and a next item given
    /// to the streaming side goes back to the features (`loadRestarted`: held back again).
    func restartLoad() {
        guard let uri = currentURI else { return }
        let handed = shared.state.withLock { $0.next }
        replacePipeline(abandoningOld: true)
        lifecycle.awaitingOwnStreamStart = true
        collectionInfo = MediaInfo()
        videoDisplaySize = nil
        forgetStreamingSideItem()
        reel_set_string(pipeline.element, "uri", uri)
        lifecycle.hasHadItem = true
        features.each("loadRestarted") { $0.loadRestarted(nextHanded: handed, host: self) }
        applyDesiredState()
    }
}
