import Foundation

/// Which recorded answer a replayed request gets (`reel --replay DIR`). A playlist or manifest
/// is answered by the version that was live at that moment of the session (the last one asked
/// at or before it); any other resource by the order it was asked in (the second request of a
/// segment that answered 503 and then 200 gets the 200). Not safe to share: one per replay,
/// behind a lock.
public struct RecordingIndex: Sendable {
    private var byKey: [String: [RecordedRequest]] = [:]
    private var served: [String: Int] = [:]
    /// Every URL the recording answered (whatever the range), to close a playlist on.
    private(set) var answered: Set<String> = []
    public let requests: [RecordedRequest]
    /// When the recording's last request was asked: past it, nothing newer was ever live.
    public let end: Double

    public init(_ requests: [RecordedRequest]) {
        // The recorder's probes are answers kept for a faults file (`RecordingFaults`), not requests the player made.
        self.requests = requests.filter(\.isPlayers).sorted { $0.seq < $1.seq }
        end = self.requests.map(\.asked).max() ?? 0
        for r in self.requests where r.method != "HEAD" {
            byKey[Self.key(r.url, range: r.range), default: []].append(r)
            if r.status != nil { answered.insert(RecordingKey.of(r.url)) }
        }
    }

    /// Whether a playlist asked `offset` seconds into the replay is past the recording's end (a
    /// little slack for the replayed player's clock, as `answer` allows).
    public func isPastTheEnd(_ offset: Double) -> Bool { offset > end + 0.25 }

    /// A live HLS media playlist (`text`, as recorded from `url`) closed where the recording
    /// ends: the segments after the last one the recording fetched are left out and
    /// `#EXT-X-ENDLIST` added, so the replayed player plays what was recorded and ends, rather
    /// than waiting at a live edge that never moves (hlsdemux2 1.22 spins there). Nil for what
    /// is not a live media playlist (a multivariant one, a VOD, an MPD).
    public func closing(_ text: String, from url: String) -> String? {
        guard text.hasPrefix("#EXTM3U"), text.contains("#EXTINF"), !text.contains("#EXT-X-ENDLIST") else { return nil }
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
        while lines.last?.isEmpty == true { lines.removeLast() }
        let base = URL(string: url)
        let lastAnswered = lines.indices.last { i in
            !lines[i].isEmpty && !lines[i].hasPrefix("#")
                && answered.contains(RecordingKey.of(URL(string: lines[i], relativeTo: base)?.absoluteString ?? lines[i]))
        }
        // The tags after it belong to segments the recording never fetched.
        if let lastAnswered { lines.removeSubrange((lastAnswered + 1)...) }
        return lines.joined(separator: "\n") + "\n#EXT-X-ENDLIST\n"
    }

    /// Whether `entry` is the last version the recording holds of its playlist or MPD: none
    /// newer was ever live.
    public func isLastVersion(_ entry: RecordedRequest) -> Bool {
        byKey[Self.key(entry.url, range: entry.range)]?.last?.seq == entry.seq
    }

    /// The answer to `url` asked `offset` seconds into the replay (in the recording's time);
    /// nil when the recording never asked for it.
    public mutating func answer(_ url: String, range: String? = nil, at offset: Double) -> RecordedRequest? {
        let key = Self.key(url, range: range)
        guard let recorded = byKey[key], !recorded.isEmpty else { return nil }
        let n = served[key, default: 0]
        served[key] = n + 1
        if recorded[0].playlist {
            // A little early is still that version: the replayed player's clock runs a few
            // milliseconds apart from the recorded one's.
            return recorded.last { $0.asked <= offset + 0.25 } ?? recorded[0]
        }
        return recorded[min(n, recorded.count - 1)]
    }

    static func key(_ url: String, range: String?) -> String { RecordingKey.of(url) + (range.map { " " + $0 } ?? "") }

    /// The recording's requests read from `requests.jsonl` (a line that does not parse is an error naming it).
    public static func read(_ text: String) throws -> [RecordedRequest] {
        let decoder = JSONDecoder()
        var out: [RecordedRequest] = []
        for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: true).enumerated() {
            do { out.append(try decoder.decode(RecordedRequest.self, from: Data(line.utf8))) } catch {
                throw RecordingError("\(RecordingFolder.requests) line \(n + 1) is not a recorded request: \(error)")
            }
        }
        return out
    }
}

public struct RecordingError: Error, CustomStringConvertible, Equatable, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// A faults file for a replay (`--replay-faults FILE`), a change a line, applied to the
/// recording before it is served: a found bug becomes a regression test, a fixed one shows it
/// stays fixed.
///
///     segment 12 status 503     the 12th segment asked (media, in the recording's order) answers 503
///     segment 12 ok             …answers as its URL next answered well (the recorded fault removed;
///                               the recorder asks a failed segment once more for this: `probe`)
///     segment 7 stall 4         …its first byte 4 s later than recorded
///     request 31 status 404     the same by the request's number in requests.jsonl (`seq`)
///     playlist refresh 5 stale  the 5th refresh of a playlist answers the version before it
///
/// `#` starts a comment.
public struct RecordingFaults: Equatable, Sendable {
    public enum Target: Equatable, Sendable { case segment(Int), request(Int), playlistRefresh(Int) }
    public enum Change: Equatable, Sendable { case status(Int), ok, stall(Double), stale }
    public var changes: [(target: Target, change: Change)] = []

    public static func == (a: RecordingFaults, b: RecordingFaults) -> Bool {
        a.changes.count == b.changes.count && zip(a.changes, b.changes).allSatisfy { $0.target == $1.target && $0.change == $1.change }
    }

    public init() {}

    public init(parsing text: String) throws {
        for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            if words.isEmpty { continue }
            func bad(_ why: String) -> RecordingError { RecordingError("line \(n + 1): \(why): \(raw.trimmingCharacters(in: .whitespaces))") }
            var rest = words[...]
            let target: Target
            switch rest.popFirst() {
            case "segment", "request":
                guard let number = rest.popFirst().flatMap(Int.init), number >= 1 else { throw bad("a number from 1 is needed") }
                target = words[0] == "segment" ? .segment(number) : .request(number)
            case "playlist":
                guard rest.popFirst() == "refresh", let number = rest.popFirst().flatMap(Int.init), number >= 1 else {
                    throw bad("expected `playlist refresh N`")
                }
                target = .playlistRefresh(number)
            default: throw bad("expected segment, request or playlist")
            }
            let change: Change
            switch (rest.popFirst(), rest.popFirst()) {
            case ("status", let code?): guard let c = Int(code), (100...599).contains(c) else { throw bad("a status is 100 to 599") }
                change = .status(c)
            case ("ok", nil): change = .ok
            case ("stall", let s?): guard let seconds = Double(s), seconds >= 0, seconds.isFinite else { throw bad("a stall is seconds") }
                change = .stall(seconds)
            case ("stale", nil): change = .stale
            default: throw bad("expected status CODE, ok, stall SECONDS or stale")
            }
            if !rest.isEmpty { throw bad("unexpected \(rest.joined(separator: " "))") }
            var isRefresh = false
            if case .playlistRefresh = target { isRefresh = true }
            if change == .stale, !isRefresh { throw bad("only a playlist refresh can be stale") }
            changes.append((target, change))
        }
    }

    /// The recording with the changes made, and what could not be made (said, never silent).
    public func applied(to requests: [RecordedRequest]) -> [RecordedRequest] { applying(to: requests).requests }

    public func applying(to requests: [RecordedRequest]) -> (requests: [RecordedRequest], notes: [String]) {
        var notes: [String] = []
        var out = requests.sorted { $0.seq < $1.seq }
        let segments = out.indices.filter { !out[$0].playlist && out[$0].method != "HEAD" && out[$0].isPlayers }
        var seen: Set<String> = []
        var refreshes: [Int] = []
        for i in out.indices where out[i].playlist && out[i].isPlayers {
            if !seen.insert(RecordingKey.of(out[i].url)).inserted { refreshes.append(i) }
        }
        for (target, change) in changes {
            let index: Int?
            switch target {
            case .segment(let n): index = n <= segments.count ? segments[n - 1] : nil
            case .request(let seq): index = out.firstIndex { $0.seq == seq }
            case .playlistRefresh(let n): index = n <= refreshes.count ? refreshes[n - 1] : nil
            }
            guard let i = index else {
                notes.append("\(Self.describe(target)): the recording has no such request; nothing changed")
                continue
            }
            let key = RecordingKey.of(out[i].url)
            switch change {
            case .status(let code):
                out[i].status = code
                out[i].error = nil
                out[i].body = nil
                out[i].bytes = 0
                out[i].headers = ["content-length": "0"]
            case .ok:
                // As the same URL answered well next (or last, before it).
                let good = out[(i + 1)...].first { RecordingKey.of($0.url) == key && ($0.status ?? 0) < 400 && $0.status != nil }
                    ?? out[..<i].last { RecordingKey.of($0.url) == key && ($0.status ?? 0) < 400 && $0.status != nil }
                if good == nil {
                    notes.append("\(Self.describe(target)) ok: \(out[i].url) never answered well in the recording; left as recorded")
                }
                if let good {
                    let (asked, seq) = (out[i].asked, out[i].seq)
                    out[i] = good
                    out[i].asked = asked
                    out[i].seq = seq
                    out[i].probe = nil
                    out[i].firstByte = asked + good.latency
                    out[i].lastByte = asked + good.latency + good.transfer
                }
            case .stall(let seconds):
                out[i].firstByte = (out[i].firstByte ?? out[i].asked) + seconds
                out[i].lastByte = out[i].lastByte.map { $0 + seconds }
            case .stale:
                let before = out[..<i].last(where: { RecordingKey.of($0.url) == key && $0.status == 200 })
                if before == nil { notes.append("\(Self.describe(target)) stale: no earlier version to serve; left as recorded") }
                if let before {
                    out[i].body = before.body
                    out[i].bytes = before.bytes
                    out[i].headers = before.headers
                    out[i].status = before.status
                }
            }
        }
        return (out, notes)
    }

    static func describe(_ target: Target) -> String {
        switch target {
        case .segment(let n): "segment \(n)"
        case .request(let n): "request \(n)"
        case .playlistRefresh(let n): "playlist refresh \(n)"
        }
    }
}
