import Foundation
import ReelCore
import ReelEngine
import ReelGLib

extension CheckRunner {
    /// `--watch SECONDS`: a live HLS stream or MPD followed while it plays (`LiveWatcher`,
    /// `DASHLiveWatcher`), photographed every `--watch-frames` seconds; what broke joins the
    /// item's problems with its time.
    func watch(_ seconds: Double, item: inout CheckReport.Item, player: Player, uri: String, input: String, playURI: String, index: Int, framesDir: URL) {
        // HLS through the URI it plays from (the gateway for a protected stream); an MPD from its
        // origin (the gateway serves it on Reel's clock, without its UTCTiming).
        let local = MediaLocator.localPath(of: uri) != nil
        let dash = DASHManifest.isDASH(uri)
        let from = local ? uri : dash ? input : playURI
        // The item plays meanwhile: photographed every few seconds, its sound measured.
        player.play()
        var meter = player.startAudioMeter()
        let title = item.title
        let photograph: (Double) -> (luma: [UInt8]?, audio: (level: Double, samples: UInt64)?, frame: CheckReport.Frame?) = { [options] at in
            let audio = meter?.peak
            meter = player.startAudioMeter()  // the next photo's interval starts now
            var frame = CheckReport.Frame(requested: String(format: "watch %.0f s", at))
            if let png = player.snapshotPNG() {
                // Named as the template names frames, at the watch's time, marked "-watch".
                let rendered = (try? CaptureFileName.render(options.template, index: index, title: title, position: at)) ?? "\(index)-\(Int(at)).png"
                let name = (rendered as NSString).deletingPathExtension + "-watch.png"
                if (try? png.write(to: framesDir.appendingPathComponent(name), options: .atomic)) != nil {
                    frame.file = "frames/" + name
                    frame.time = at
                    frame.width = CapturedFrame.pngSize(png)?.width
                    frame.height = CapturedFrame.pngSize(png)?.height
                }
            }
            return (player.snapshotLuma(), audio, frame)
        }
        let wait: (Double) -> Void = { pause in _ = GLibMainLoop.run(until: { false }, timeout: pause) }
        let watched: LiveWatcher.Result?
        if dash {
            var watcher = DASHLiveWatcher(uri: from, fallback: local ? nil : playURI, duration: seconds, log: options.log, photoInterval: options.watchFrames)
            (watcher.wait, watcher.photograph) = (wait, photograph)
            watched = watcher.run()
        } else {
            var watcher = LiveWatcher(uri: from, duration: seconds, log: options.log, photoInterval: options.watchFrames)
            (watcher.wait, watcher.photograph) = (wait, photograph)
            watched = watcher.run()
        }
        if let watched {
            item.watch = CheckReport.Watch(duration: seconds, variants: watched.variants, reloads: watched.reloads,
                                           segmentsFetched: watched.segmentsFetched, timeline: watched.problems, format: dash ? "dash" : "hls")
            item.frames += watched.frames
            item.problems += watched.problems.map {
                HLSProblem(line: nil, severity: $0.severity, code: $0.code, message: String(format: "at %.1f s, %@: %@", $0.at, $0.variant, $0.message))
            }
        }
    }
}
