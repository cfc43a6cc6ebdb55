import Foundation
import ReelCore
import ReelGateway

/// `reel check --watch DURATION` on a live MPD: reloads it as a player does (every half segment,
/// at most `minimumUpdatePeriod` apart), reads the server's clock from its `UTCTiming`, fetches
/// every segment it announces once the clock makes it available, and holds it to
/// `DASHLiveWatch`'s rules. The MPD is read from its origin, as a conformance tool reads it (the
/// gateway serves it on Reel's clock, without its `UTCTiming`). Blocks the calling thread.
struct DASHLiveWatcher {
    var uri: String
    /// Where to read the MPD when its origin refuses this watcher (a protected stream, which only
    /// the gateway has the credentials of): the gateway's URL, whose MPD is on Reel's clock.
    var fallback: String?
    var duration: Double
    var log: (String) -> Void
    var photoInterval: Double = 0
    var photograph: ((Double) -> (luma: [UInt8]?, audio: (level: Double, samples: UInt64)?, frame: CheckReport.Frame?))?
    var wait: (Double) -> Void = { Thread.sleep(forTimeInterval: $0) }

    /// Nil when `uri` is not a dynamic MPD that can be read (a static one is not live).
    func run() -> LiveWatcher.Result? {
        let url: URL, data: Data
        if let origin = URL(string: uri), let body = HLSStreamCheck.fetch(origin, timeout: 10) {
            (url, data) = (origin, body)
        } else if let fallback, let gateway = URL(string: fallback), let body = HLSStreamCheck.fetch(gateway, timeout: 10) {
            log("watch   the MPD's origin refused a plain request: read through the gateway, on this machine's clock")
            (url, data) = (gateway, body)
        } else {
            return nil
        }
        let text = String(decoding: data, as: UTF8.self)
        let clock = Self.clockOffset(text, base: url, log: log)
        guard let first = DASHLiveWatch.snapshot(text, base: url, now: Date().addingTimeInterval(clock)) else { return nil }
        var result = LiveWatcher.Result(variants: first.periods.last?.representations.map(\.id) ?? [])
        var watch = DASHLiveWatch()
        let start = Date()
        let end = start.addingTimeInterval(duration)
        func timeLeft(_ most: Double) -> Double { max(0.5, min(most, end.timeIntervalSinceNow)) }
        let interval = max(0.5, min(first.minimumUpdatePeriod ?? .infinity, first.longestSegment / 2))
        var pace = WatchPace(start: start, duration: duration, photoInterval: photoInterval)
        var unreadable = false
        var body: Data? = data
        log("watch   a live MPD, \(result.variants.count) Representation\(result.variants.count == 1 ? "" : "s"), for \(Int(duration)) s")
        while true {
            let round = Date()
            let at = round.timeIntervalSince(start)
            if body == nil { body = HLSStreamCheck.fetch(url, timeout: timeLeft(5)) }
            let now = Date().addingTimeInterval(clock)
            if let body, let snapshot = DASHLiveWatch.snapshot(String(decoding: body, as: UTF8.self), base: url, now: now) {
                unreadable = false
                result.reloads += 1
                result.problems += watch.observe(snapshot, at: at, now: now, slack: interval)
                for (representation, segment) in watch.due(snapshot, now: now) where Date() < end {
                    result.segmentsFetched += 1
                    if let status = LiveWatcher.unavailableStatus(segment, timeout: timeLeft(10)),
                       let problem = watch.unavailable(segment, representation: representation, status: status == 0 ? nil : status, at: Date().timeIntervalSince(start)) {
                        result.problems.append(problem)
                    }
                }
            } else if !unreadable {
                unreadable = true
                result.problems.append(.init(at: at, variant: "MPD", code: "mpd-unavailable", severity: .error, message: "the MPD could not be read as a live MPD"))
            }
            body = nil
            guard pace.endRound(round, interval: interval, result: &result, photograph: photograph, wait: wait) else { break }
        }
        for p in result.problems { log(String(format: "watch   %6.1f s  %@  %@: %@", p.at, p.variant, p.code, p.message)) }
        return result
    }

    /// The server's clock against ours (seconds to add), from the MPD's first `UTCTiming` source
    /// that answers with a time in its body (`direct`, `http-xsdate`, `http-iso`); 0 without one.
    static func clockOffset(_ text: String, base: URL, log: (String) -> Void) -> Double {
        let offset = measure(text, base: base)
        if abs(offset) > 0.5 { log(String(format: "watch   the MPD's UTCTiming clock is %+.1f s off this machine's", offset)) }
        return offset
    }

    private static func measure(_ text: String, base: URL) -> Double {
        for source in DASHClock.sources(in: text) {
            if source.scheme == .direct, let server = DASHClock.serverTime(.direct, body: Data(source.values[0].utf8), dateHeader: nil) {
                return DASHClock.offset(server: server, sent: Date(), received: Date())
            }
            guard [.httpXSDate, .httpISO].contains(source.scheme) else { continue }
            for value in source.values.prefix(2) {
                guard let url = URIReference.resolve(value, against: base) else { continue }
                let sent = Date()
                guard let body = HLSStreamCheck.fetch(url, timeout: 5), let server = DASHClock.serverTime(source.scheme, body: body, dateHeader: nil) else { continue }
                return DASHClock.offset(server: server, sent: sent, received: Date())
            }
        }
        return 0
    }
}
