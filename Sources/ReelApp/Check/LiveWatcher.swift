import Foundation
import ReelCore
import ReelGateway

/// `reel check --watch DURATION`: follows a live HLS item for DURATION seconds — every variant of
/// its master (or the media playlist itself), reloaded every half target duration as a player
/// reloads it (RFC 8216 §6.3.4), every newly listed segment fetched — and holds it to
/// `LiveWatch`'s rules. Fetched through the URI it is played from (the gateway for a protected
/// stream). Runs on the calling thread (the check's), which it blocks for the duration.
struct LiveWatcher {
    var uri: String
    var duration: Double
    var log: (String) -> Void
    /// How often the item's picture is photographed (0: never), and how: the photo's small luma,
    /// the sound's peak since the last photo, and where the photo's PNG was written (a frame of
    /// the report), at seconds since the watch began.
    var photoInterval: Double = 0
    var photograph: ((Double) -> (luma: [UInt8]?, audio: (level: Double, samples: UInt64)?, frame: CheckReport.Frame?))?
    /// Waits that long (the check pumps its main loop meanwhile, so the player goes on playing).
    var wait: (Double) -> Void = { Thread.sleep(forTimeInterval: $0) }

    struct Result {
        var problems: [LiveWatch.Problem] = []
        var variants: [String] = []
        var reloads = 0
        var segmentsFetched = 0
        /// The photos taken while watching, as report frames.
        var frames: [CheckReport.Frame] = []
    }

    /// Nil when `uri` is not an HLS playlist that can be read.
    func run() -> Result? {
        guard let url = URL(string: uri), let data = HLSStreamCheck.fetch(url, timeout: 10),
              let parsed = try? HLSPlaylist.parseReporting(String(decoding: data, as: UTF8.self), url: url) else { return nil }
        var targets: [(name: String, url: URL)] = []
        switch parsed.playlist {
        case .media: targets = [(HLSStreamCheck.displayName(url), url)]
        case .master(let master):
            for variant in master.variants {
                guard let variantURL = URIReference.resolve(variant.uri, against: url) else { continue }
                let label = variant.resolution.map { "\($0.height)p" } ?? variant.bandwidth.map { "\($0 / 1000) kbit/s" } ?? HLSStreamCheck.displayName(variantURL)
                targets.append((targets.contains { $0.name == label } ? "\(label) (\(HLSStreamCheck.displayName(variantURL)))" : label, variantURL))
            }
        }
        guard !targets.isEmpty else { return nil }
        var result = Result(variants: targets.map(\.name))
        var states = targets.map { LiveWatch.Variant(name: $0.name) }
        var fetched: [Set<String>] = Array(repeating: [], count: targets.count)
        var unreadable = Array(repeating: false, count: targets.count)
        let start = Date()
        var interval = 1.0
        var pace = WatchPace(start: start, duration: duration, photoInterval: photoInterval)
        log("watch   \(targets.count) variant\(targets.count == 1 ? "" : "s") for \(Int(duration)) s")
        // The watch ends at its duration, whatever its servers do: every fetch within the time
        // left (a probe hanging 10 s on each of 22 new segments made a 12 s watch last 211 s).
        let end = start.addingTimeInterval(duration)
        func timeLeft(_ most: Double) -> Double { max(0.5, min(most, end.timeIntervalSinceNow)) }
        var notProbed = Array(repeating: 0, count: targets.count)
        while true {
            let round = Date()
            for (i, target) in targets.enumerated() {
                let at = Date().timeIntervalSince(start)
                guard let body = HLSStreamCheck.fetch(target.url, timeout: timeLeft(5)),
                      let media = (try? HLSPlaylist.parseReporting(String(decoding: body, as: UTF8.self), url: target.url))?.playlist.media else {
                    if !unreadable[i] {
                        unreadable[i] = true
                        result.problems.append(.init(at: at, variant: target.name, code: "playlist-unavailable", severity: .error,
                                                     message: "the media playlist could not be read"))
                    }
                    continue
                }
                unreadable[i] = false
                result.reloads += 1
                interval = max(0.5, min(interval, media.targetDuration / 2))
                result.problems += states[i].observe(media, at: at, now: Date().timeIntervalSince1970, slack: interval)
                // Every newly listed segment is fetched once: listed means available (§6.2.2).
                // (At the first reload only the newest: the older ones were listed before the watch.)
                let first = fetched[i].isEmpty
                for segment in media.segments where !fetched[i].contains(segment.uri) {
                    fetched[i].insert(segment.uri)
                    if first, segment.uri != media.segments.last?.uri { continue }
                    guard let segmentURL = URIReference.resolve(segment.uri, against: target.url) else { continue }
                    guard Date() < end else {
                        // Listed before the end but not probed in time; one first listed at the
                        // end is past the watch, not missed by it.
                        if at < duration - interval { notProbed[i] += 1 }
                        continue
                    }
                    result.segmentsFetched += 1
                    if let status = Self.unavailableStatus(segmentURL, timeout: timeLeft(10)), let problem = states[i].unavailable(segment.uri, status: status == 0 ? nil : status, at: Date().timeIntervalSince(start)) {
                        result.problems.append(problem)
                    }
                }
            }
            // A playlist that has ended (EXT-X-ENDLIST, VOD) is not live: nothing to follow.
            if result.reloads > 0, states.allSatisfy({ $0.ended }) { return nil }
            result.problems += LiveWatch.across(&states, at: Date().timeIntervalSince(start))
            guard pace.endRound(round, interval: interval, result: &result, photograph: photograph, wait: wait) else { break }
        }
        for (i, n) in notProbed.enumerated() where n > 0 {
            result.problems.append(.init(at: duration, variant: targets[i].name, code: "not-probed", severity: .warning,
                                         message: "\(n) segment\(n == 1 ? "" : "s") listed were not probed: the watch's \(Int(duration)) s had ended"))
        }
        for p in result.problems { log(String(format: "watch   %6.1f s  %@  %@: %@", p.at, p.variant, p.code, p.message)) }
        return result
    }

    /// The HTTP status of a segment that cannot be fetched (0: no answer), nil when it can.
    static func unavailableStatus(_ url: URL, timeout: Double = 10) -> Int? {
        guard url.scheme == "http" || url.scheme == "https" else {
            return url.isFileURL && !FileManager.default.fileExists(atPath: url.path) ? 404 : nil
        }
        // Through the gateway for a protected stream: it must pass the failure on, not answer it
        // as the gap it gives the demuxer (`LiveSegmentGap`).
        switch PlaylistDownload.fetchBlocking(url, maximumBytes: 64 << 20, timeout: timeout, headers: [("Range", "bytes=0-1023"), (LiveSegmentGap.passErrorsHeader, "1")]) {
        case .data: return nil
        case .tooLarge: return nil
        case .timedOut: return 0
        case .failed(let why):
            guard let range = why.range(of: "HTTP status ") else { return 0 }
            return Int(why[range.upperBound...].prefix { $0.isNumber }) ?? 0
        }
    }
}

/// The end of a round both watchers share: the photo when one is due (its frame and the picture
/// rules' problems into the result), then the pause until the next round.
struct WatchPace {
    let start: Date
    let duration: Double
    let photoInterval: Double
    private var nextPhoto: Double
    private var pictures = LiveWatch.Pictures()

    init(start: Date, duration: Double, photoInterval: Double) {
        self.start = start; self.duration = duration; self.photoInterval = photoInterval
        nextPhoto = photoInterval > 0 ? photoInterval : .infinity
    }

    /// False when the watch is over.
    mutating func endRound(_ round: Date, interval: Double, result: inout LiveWatcher.Result,
                           photograph: ((Double) -> (luma: [UInt8]?, audio: (level: Double, samples: UInt64)?, frame: CheckReport.Frame?))?,
                           wait: (Double) -> Void) -> Bool {
        if let photograph, Date().timeIntervalSince(start) >= nextPhoto {
            let at = Date().timeIntervalSince(start)
            let photo = photograph(at)
            if let frame = photo.frame { result.frames.append(frame) }
            result.problems += pictures.photographed(luma: photo.luma, audio: photo.audio, at: at)
            nextPhoto += photoInterval
        }
        let elapsed = Date().timeIntervalSince(start)
        guard elapsed < duration else { return false }
        let pause = min(interval - Date().timeIntervalSince(round), duration - elapsed)
        if pause > 0 { wait(pause) }
        return true
    }
}
