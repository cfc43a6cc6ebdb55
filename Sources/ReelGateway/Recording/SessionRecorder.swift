import Foundation
import ReelCore
import Synchronization

/// Writes a session recording (`RecordingFolder`): a request each, as its answer ends, and its
/// body once by its content. Stops at the size bound, says so in recording.json and to the app,
/// and playback goes on. Thread-safe.
public final class SessionRecorder: Sendable {
    public let directory: URL
    private let start = ContinuousClock.now
    private let state: Mutex<State>
    /// Told once, when the size bound stops the recording.
    public let onStopped = Mutex<(@Sendable (String) -> Void)?>(nil)

    private struct State {
        var manifest: RecordingManifest
        var requests: FileHandle
        var nextSeq = 1
        var bytes = 0
        var bodies: Set<String> = []
        var stopped = false
        var events: FileHandle?
        /// Requests asked and not yet written, by `seq`: how each is written if Reel stops first.
        var open: [Int: @Sendable (String) -> Void] = [:]
        var closed = false
    }

    /// Creates DIR (0700; an existing recording there is refused) with its manifest.
    public init(directory path: String, inputs: [String], maximumBytes: Int?) throws {
        directory = URL(fileURLWithPath: path, isDirectory: true)
        let manifestPath = directory.appendingPathComponent(RecordingFolder.manifest).path
        if FileManager.default.fileExists(atPath: manifestPath) {
            throw RecordingError("\(path) already holds a recording; record into a new folder")
        }
        do {
            try PrivateFile.privateDirectory(path)
            try PrivateFile.privateDirectory(directory.appendingPathComponent(RecordingFolder.bodies).path)
            let manifest = RecordingManifest(started: Date().timeIntervalSince1970, inputs: inputs, maximumBytes: maximumBytes)
            try PrivateFile.write(try Self.encoded(manifest), to: manifestPath, mode: 0o600)
            let fd = try PrivateFile.openForAppend(directory.appendingPathComponent(RecordingFolder.requests).path)
            state = Mutex(State(manifest: manifest, requests: FileHandle(fileDescriptor: fd, closeOnDealloc: true)))
        } catch let failure as PrivateFile.Failure {
            throw RecordingError("the recording cannot be written: \(failure)")
        }
    }

    /// Seconds from the recording's start.
    func offset(_ instant: ContinuousClock.Instant = .now) -> Double {
        let d = instant - start
        return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }

    func nextSeq() -> Int { state.withLock { s in defer { s.nextSeq += 1 }; return s.nextSeq } }

    /// Request `seq` is under way; `close` calls `end` ("exit") if it is not written by then.
    func opened(_ seq: Int, end: @escaping @Sendable (String) -> Void) {
        state.withLock { s in if !s.closed { s.open[seq] = end } }
    }

    /// Writes every request still under way (its answer not come, or its body not ended) as it
    /// stands, cut at "exit": a recording stopped mid-transfer keeps what was asked and what
    /// came, so its replay stalls and ends where the session did.
    public func close() {
        let ends = state.withLock { s in
            s.closed = true
            return Array(s.open.values)
        }
        for end in ends { end("exit") }
    }

    /// The request, with its body (a playlist's redacted as text), unless the bound is reached.
    func finish(_ request: RecordedRequest, body: [UInt8]) {
        var entry = request
        var content = body
        if entry.playlist, !body.isEmpty { content = Array(Redactor.redactText(String(decoding: body, as: UTF8.self)).utf8) }
        let name = content.isEmpty ? nil : SHA256.hex(content)
        entry.body = name
        entry.bytes = content.count
        guard let line = try? Self.encoded(entry) else { return }
        var stoppedNow: String?
        state.withLock { s in
            // Once: a request `close` wrote is not written again when its answer comes after all.
            guard s.open.removeValue(forKey: entry.seq) != nil, !s.stopped else { return }
            let fresh = name.map { !s.bodies.contains($0) } ?? false
            let cost = line.count + 1 + (fresh ? content.count : 0)
            if let bound = s.manifest.maximumBytes, s.bytes + cost > bound {
                s.stopped = true
                s.manifest.stopped = "size"
                s.manifest.stoppedAt = offset()
                if let data = try? Self.encoded(s.manifest) {
                    try? PrivateFile.write(data, to: directory.appendingPathComponent(RecordingFolder.manifest).path, mode: 0o600)
                }
                stoppedNow = String(format: "the recording in %@ stopped at its size bound (%d bytes) after %.1f s; playback goes on",
                                    directory.path, bound, s.manifest.stoppedAt ?? 0)
                return
            }
            if let name, fresh {
                try? PrivateFile.write(Data(content), to: directory.appendingPathComponent(RecordingFolder.bodies).appendingPathComponent(name).path, mode: 0o600)
                s.bodies.insert(name)
            }
            s.bytes += cost
            s.requests.write(line + Data("\n".utf8))
        }
        if let stoppedNow, let tell = onStopped.withLock({ $0 }) { tell(stoppedNow) }
    }

    /// One line of Reel's event stream (`--events`'s form) into events.jsonl, redacted.
    public func recordEvent(_ line: String) {
        let data = Data((Redactor.redactText(line) + "\n").utf8)
        state.withLock { s in
            guard !s.stopped else { return }
            if s.events == nil, let fd = try? PrivateFile.openForAppend(directory.appendingPathComponent(RecordingFolder.events).path) {
                s.events = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
            }
            s.bytes += data.count
            s.events?.write(data)
        }
    }

    public var isStopped: Bool { state.withLock { $0.stopped } }

    private static func encoded<T: Encodable>(_ value: T) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }
}
