import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import ReelCore

extension GatewayRequestHandler {
    /// Measures a live item's server clock from its MPD's `UTCTiming` (`DASHClock`) before the
    /// MPD is served, so that its window is read on the server's time. The time source is
    /// fetched as any resource of the item (its header where the scope allows, redirects and
    /// token refreshes as for segments); the first source that answers is kept. Nothing is
    /// measured for an MPD without one: the desktop's clock is taken as the server's. The MPD
    /// waits for this at most `clockBudget` (a time source that hangs does not hold the start).
    func measureClock(_ text: String, base: URL, item: GatewayItem, id: GatewayItemID, live: LiveStream) async {
        let sources = DASHClock.sources(in: text)
        guard !sources.isEmpty, live.shouldAskClock() else { return }
        let giveUp = ContinuousClock.now + Self.clockBudget
        for source in sources {
            if source.scheme == .direct {
                // The time the MPD was made: as good as its delivery is quick.
                guard let server = DASHClock.serverTime(.direct, body: Data(source.values[0].utf8), dateHeader: nil) else { continue }
                return keep(DASHClock.offset(server: server, sent: Date(), received: Date()), scheme: source.scheme, item: id, live: live)
            }
            for value in source.values.prefix(2) where ContinuousClock.now < giveUp {
                guard let url = URL(string: value, relativeTo: base)?.absoluteURL, url.scheme == "http" || url.scheme == "https" else { continue }
                let head = HTTPRequestHead(version: .http1_1, method: source.scheme == .httpHead ? .HEAD : .GET, uri: "/")
                let sent = Date()
                guard case .success(let upstream) = await fetch(item: item, id: id, resource: .init(url: url, kind: nil, parent: nil), head: head,
                                                                deadline: .now() + .milliseconds(Int64((giveUp - ContinuousClock.now) / .milliseconds(1)))) else { continue }
                // The body within what is left of the budget too, and no more than 4 KiB of it: a
                // source that sends its head and then a byte every 2 s, or 200 MB, gives up its
                // connection when the budget ends (the reading task is cancelled, and the request
                // with it).
                let response = upstream.response
                let left = giveUp - ContinuousClock.now
                let read: Data? = await withTaskGroup(of: Data?.self) { group in
                    group.addTask {
                        var body = Data()
                        var chunks = response.body.makeAsyncIterator()
                        while body.count <= 4096, let chunk = try? await chunks.next() { body.append(contentsOf: chunk.readableBytesView) }
                        return Task.isCancelled ? nil : body
                    }
                    group.addTask {
                        try? await Task.sleep(for: left)
                        return nil
                    }
                    let first = await group.next() ?? nil
                    group.cancelAll()
                    return first
                }
                let received = Date()
                guard let body = read else {
                    logLine(upstream.method, upstream.requestURL, status: Int(upstream.response.status.code), bytes: 0,
                            started: upstream.started, note: "utc-timing-body-too-slow")
                    continue
                }
                logLine(upstream.method, upstream.requestURL, status: Int(upstream.response.status.code), bytes: Int64(body.count),
                        started: upstream.started, note: "utc-timing")
                guard upstream.response.status.code == 200,
                      let server = DASHClock.serverTime(source.scheme, body: body, dateHeader: upstream.response.headers["Date"].first) else { continue }
                return keep(DASHClock.offset(server: server, sent: sent, received: received), scheme: source.scheme, item: id, live: live)
            }
        }
        Log.debug(.gateway, .warning, "\(id): no UTCTiming source answered; the desktop's clock is taken as the server's")
    }

    /// How long a live MPD's first answer waits for its time sources at most.
    static let clockBudget: Duration = .seconds(3)

    private func keep(_ offset: Double, scheme: DASHClock.Scheme, item: GatewayItemID, live: LiveStream) {
        live.setClockOffset(offset)
        Log.debug(.gateway, .info, "\(item): the server's clock is \(String(format: "%+.3f", offset)) s from ours (\(scheme.rawValue))")
    }
}
