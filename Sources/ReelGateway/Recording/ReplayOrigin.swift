import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import ReelCore
import Synchronization

/// A recording answering as the origin did (`reel --replay DIR`): each request gets the
/// recorded answer (`RecordingIndex`: a playlist's version live at that moment, anything else
/// in the order asked), after the recorded wait for its first byte and at the recorded pace,
/// a recorded failure as that failure. `speed` divides every wait and the clock the versions
/// are chosen by. A live MPD says the recorded wall clock (`RecordingIndex.replayedMPD`). Past
/// the recording's last request a live HLS playlist or MPD is closed (`RecordingIndex.closing`,
/// `replayedMPD`): the replay ends where the recording did. Nothing reaches the
/// network; nothing needs the credentials.
public final class ReplayOrigin: GatewayUpstream {
    public let manifest: RecordingManifest
    /// The faults file's changes that could not be made.
    public let notes: [String]
    /// Whether the recording holds a live (dynamic) MPD: dashdemux2 reads a live window by the
    /// desktop's clock, which a faster replay cannot speed up (`--replay-speed` is refused).
    public var holdsLiveMPD: Bool {
        index.withLock { $0.requests }.contains { r in
            guard r.playlist, r.status == 200, let name = r.body, r.url.lowercased().contains(".mpd") || r.headers["content-type"]?.contains("dash") == true,
                  let data = try? Data(contentsOf: folder.appendingPathComponent(RecordingFolder.bodies).appendingPathComponent(name)) else { return false }
            let text = String(decoding: data.prefix(4096), as: UTF8.self)
            return text.contains("<MPD") && text.contains(#"type="dynamic""#)
        }
    }

    /// The recorded live clock: the programme date of the recorded session's first `live` event
    /// (events.jsonl), else the wall clock at the recording's start. A replay's live clock is
    /// pinned there unless `--clock-at` says otherwise (`PlayerConfiguration.clockAt`): its
    /// positions, badge and `epoch-time` are then the media's, the same on every replay.
    public var recordedClock: Date {
        let events = (try? String(contentsOf: folder.appendingPathComponent(RecordingFolder.events), encoding: .utf8)) ?? ""
        for line in events.split(separator: "\n") where line.contains("\"live\"") {
            if let o = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any], o["event"] as? String == "live",
               let epoch = o["epochTime"] as? Double, epoch.isFinite {
                return Date(timeIntervalSince1970: epoch)
            }
        }
        return Date(timeIntervalSince1970: manifest.started)
    }
    private let folder: URL
    private let index: Mutex<RecordingIndex>
    private let speed: Double
    private let start = Mutex<ContinuousClock.Instant?>(nil)
    private let firstAsked: Double

    public struct Miss: Error, CustomStringConvertible {
        public var description: String
    }

    /// Reads DIR's recording, with `faults` applied.
    public init(directory path: String, speed: Double = 1, faults: RecordingFaults = RecordingFaults()) throws {
        let folder = URL(fileURLWithPath: path, isDirectory: true)
        self.folder = folder
        let read = { (name: String) throws -> Data in
            do { return try Data(contentsOf: folder.appendingPathComponent(name)) } catch {
                throw RecordingError("\(path) is not a recording: \(name) cannot be read (\(error.localizedDescription))")
            }
        }
        do { manifest = try JSONDecoder().decode(RecordingManifest.self, from: try read(RecordingFolder.manifest)) } catch let e as RecordingError { throw e } catch {
            throw RecordingError("\(path)/\(RecordingFolder.manifest) is not a recording's manifest: \(error)")
        }
        guard manifest.version == RecordingFolder.version else { throw RecordingError("\(path) is a recording of version \(manifest.version); this Reel reads \(RecordingFolder.version)") }
        let requests = try RecordingIndex.read(String(decoding: try read(RecordingFolder.requests), as: UTF8.self))
        let changed = faults.applying(to: requests)
        notes = changed.notes
        firstAsked = max(0, changed.requests.map(\.asked).min() ?? 0)
        index = Mutex(RecordingIndex(changed.requests))
        self.speed = speed > 0 && speed.isFinite ? speed : 1
    }

    /// The recording's time now: its first request's (the replay's first request is asked at
    /// the moment the recorded one was, so that the recorded wall clock at it is the same: a
    /// live MPD's segments are chosen by it), plus the seconds since, times `speed`.
    private func now() -> Double {
        let t = ContinuousClock.now
        let first = start.withLock { s in
            if s == nil { s = t }
            return s!
        }
        let d = t - first
        return firstAsked + (Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18) * speed
    }

    public func execute(_ request: HTTPClientRequest, deadline: NIODeadline) async throws -> HTTPClientResponse {
        let offset = now()
        let range = request.headers["Range"].first
        guard let entry = index.withLock({ $0.answer(request.url, range: range, at: offset) }) else {
            // A segment the recorded player never fetched (one before where it started, asked
            // by a seek) answers as an origin without it does: 404, which the gateway's live
            // repairs treat as a gap (`LiveSegmentGap`) rather than a failed download that
            // hlsdemux2 1.22 spins on. A playlist or manifest missing says so.
            if !RecordedRequest.isPlaylist(contentType: nil, url: request.url) {
                var headers = HTTPHeaders()
                headers.add(name: "content-length", value: "0")
                return HTTPClientResponse(status: .notFound, headers: headers, body: .bytes(ByteBuffer()))
            }
            throw Miss(description: "\(Redactor.redactURL(request.url)) is not in the recording")
        }
        try await Task.sleep(for: .seconds(entry.latency / speed))
        guard let status = entry.status else {
            // No answer had come when the session ended: none comes now either.
            if entry.cut == "exit" { try await Task.sleep(for: .seconds(120)) }
            throw Miss(description: "as recorded: \(entry.error ?? "no answer")")
        }
        var headers = HTTPHeaders()
        for (name, value) in entry.headers.sorted(by: { $0.key < $1.key }) { headers.add(name: name, value: value) }
        var body: [UInt8] = []
        if let name = entry.body, request.method != .HEAD {
            guard let data = try? Data(contentsOf: folder.appendingPathComponent(RecordingFolder.bodies).appendingPathComponent(name)) else {
                throw Miss(description: "the body of \(Redactor.redactURL(entry.url)) is missing from the recording")
            }
            body = Array(data)
            // Past the recording's end a live playlist ends where the recording does.
            let pastTheEnd = entry.playlist && index.withLock { $0.isPastTheEnd(offset) }
            if pastTheEnd, let closed = index.withLock({ $0.closing(String(decoding: body, as: UTF8.self), from: entry.url) }) {
                body = Array(closed.utf8)
            }
            // A live MPD on the recorded clock (its segments are available by it), closed from
            // its last version on: dashdemux2 1.22 ends a stream at the end of a static MPD, but
            // one that reached the live edge first waits there for ever, however the MPD changes.
            if entry.playlist, let replayed = index.withLock({
                $0.replayedMPD(String(decoding: body, as: UTF8.self), from: entry.url,
                               wallClock: Date(timeIntervalSince1970: manifest.started + offset), closing: pastTheEnd || $0.isLastVersion(entry))
            }) {
                body = Array(replayed.utf8)
            }
        }
        if entry.playlist { headers.replaceOrAdd(name: "content-length", value: String(body.count)) }
        let paced = PacedBody(bytes: body, seconds: entry.transfer / speed, cut: entry.cut)
        return HTTPClientResponse(status: HTTPResponseStatus(statusCode: status), headers: headers, body: .stream(paced))
    }
}

/// A recorded body served in chunks spread over the recorded transfer time: a slow segment is
/// as slow, a stalled one stalls. One the connection cut ends with an error where it ended; one
/// Reel stopped reading waits there (the rest never came) until its reader goes.
struct PacedBody: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let bytes: [UInt8]
    let seconds: Double
    let cut: String?

    struct Cut: Error, CustomStringConvertible { var description: String { "the recorded answer was cut off here" } }

    struct AsyncIterator: AsyncIteratorProtocol {
        let body: PacedBody
        var offset = 0
        var chunks: Int { Swift.max(1, Swift.min(32, body.bytes.count / 16_384)) }
        mutating func next() async throws -> ByteBuffer? {
            guard offset < body.bytes.count else {
                switch body.cut {
                case nil: return nil
                case "reader", "exit": try await Task.sleep(for: .seconds(120)); throw Cut()
                default: throw Cut()
                }
            }
            let size = (body.bytes.count + chunks - 1) / chunks
            if body.seconds > 0.01 { try await Task.sleep(for: .seconds(body.seconds / Double(chunks))) }
            let end = Swift.min(body.bytes.count, offset + size)
            defer { offset = end }
            return ByteBuffer(bytes: body.bytes[offset..<end])
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(body: self) }
}
