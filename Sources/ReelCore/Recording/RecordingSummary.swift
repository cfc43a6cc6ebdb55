import Foundation

/// `reel inspect DIR` on a recording: what was asked, what went wrong and when, over what
/// span, of which playlists (renditions).
public struct RecordingSummary: Equatable, Sendable {
    public struct Fault: Equatable, Sendable {
        public var seq: Int
        public var at: Double
        public var url: String
        /// "503", "no answer: …", "cut off (upstream)", "slow: 4.1 s to the first byte".
        public var what: String
    }
    public var manifest: RecordingManifest
    public var requests = 0
    public var playlistRequests = 0
    public var mediaRequests = 0
    public var bytes = 0
    /// From the first request to the last byte, in seconds.
    public var span: Double = 0
    /// Each playlist or manifest URL, with how often it was asked.
    public var playlists: [(url: String, count: Int)] = []
    public var faults: [Fault] = []
    public var events = 0
    /// Failed segments the recorder asked again for itself (`RecordedRequest.probe`): not the
    /// player's requests, not faults of the session.
    public var probes = 0

    public static func == (a: RecordingSummary, b: RecordingSummary) -> Bool { a.json == b.json }

    /// A first byte later than this is a stall worth naming.
    public static let slowSeconds = 2.0

    public init(manifest: RecordingManifest, requests list: [RecordedRequest], eventLines: Int = 0) {
        self.manifest = manifest
        events = eventLines
        var counts: [String: Int] = [:]
        var order: [String] = []
        for r in list.sorted(by: { $0.seq < $1.seq }) {
            if !r.isPlayers {
                probes += 1
                continue
            }
            requests += 1
            bytes += r.bytes
            span = Swift.max(span, r.lastByte ?? r.firstByte ?? r.asked)
            if r.playlist {
                playlistRequests += 1
                if counts[r.url] == nil { order.append(r.url) }
                counts[r.url, default: 0] += 1
            } else {
                mediaRequests += 1
            }
            let what: String?
            if let status = r.status, status >= 400 { what = "HTTP \(status)" }
            else if r.status == nil { what = "no answer: \(r.error ?? "?")" }
            else if r.cut == "upstream" { what = "cut off by the connection after \(r.bytes) bytes" }
            else if r.latency >= Self.slowSeconds { what = String(format: "slow: %.1f s to the first byte", r.latency) }
            else { what = nil }
            if let what { faults.append(Fault(seq: r.seq, at: r.asked, url: r.url, what: what)) }
        }
        playlists = order.map { ($0, counts[$0] ?? 0) }
    }

    public var json: JSONValue {
        .object([
            ("started", .string(ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: manifest.started)))),
            ("inputs", .array(manifest.inputs.map { .string($0) })),
            ("requests", .int(requests)), ("playlistRequests", .int(playlistRequests)), ("mediaRequests", .int(mediaRequests)), ("probes", .int(probes)),
            ("bytes", .int(bytes)), ("spanSeconds", .double(span)), ("events", .int(events)),
            ("stopped", .optional(manifest.stopped)),
            ("playlists", .array(playlists.map { .object([("url", .string($0.url)), ("requests", .int($0.count))]) })),
            ("faults", .array(faults.map { .object([("seq", .int($0.seq)), ("at", .double($0.at)), ("url", .string($0.url)), ("what", .string($0.what))]) })),
        ])
    }

    public var text: String {
        var lines = [
            "Recording of \(manifest.inputs.joined(separator: ", "))",
            "  started    \(ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: manifest.started)))",
            String(format: "  span       %.1f s", span),
            "  requests   \(requests) (\(playlistRequests) playlists, \(mediaRequests) media), \(bytes) bytes; \(events) events"
                + (probes > 0 ? "; \(probes) failed segment(s) asked again by the recorder" : ""),
        ]
        if let stopped = manifest.stopped { lines.append(String(format: "  stopped    at %.1f s (%@ bound)", manifest.stoppedAt ?? 0, stopped)) }
        lines.append("  playlists")
        for p in playlists { lines.append("    \(p.url) ×\(p.count)") }
        lines.append(faults.isEmpty ? "  faults     none" : "  faults")
        for f in faults { lines.append(String(format: "    %7.2f s  #%d  %@  %@", f.at, f.seq, f.what, f.url)) }
        return lines.joined(separator: "\n")
    }
}
