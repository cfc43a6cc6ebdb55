import AsyncHTTPClient
import Foundation
import NIOCore
import ReelCore
import Synchronization

/// The network, with each answer recorded as it passes (`SessionRecorder`): the body is teed
/// as the relay reads it, so recording adds no wait; an answer the relay stops reading (a
/// cancelled segment) is recorded with what came.
struct RecordingUpstream: GatewayUpstream {
    let network: NetworkUpstream
    let recorder: SessionRecorder

    func execute(_ request: HTTPClientRequest, deadline: NIODeadline) async throws -> HTTPClientResponse {
        guard !recorder.isStopped else { return try await network.execute(request, deadline: deadline) }
        let seq = recorder.nextSeq()
        let asked = recorder.offset()
        let url = RecordingKey.of(request.url)
        let range = request.headers["Range"].first
        var entry = RecordedRequest(seq: seq, method: request.method.rawValue, url: url, status: nil, asked: asked)
        entry.range = range
        recorder.opened(seq) { [entry, recorder] cut in
            var stopped = entry
            stopped.error = String(format: "no answer yet when Reel stopped, %.1f s after it was asked", recorder.offset() - entry.asked)
            stopped.cut = cut
            recorder.finish(stopped, body: [])
        }
        var response: HTTPClientResponse
        do { response = try await network.execute(request, deadline: deadline) } catch {
            entry.error = Redactor.redactText("\(error)")
            entry.firstByte = recorder.offset()
            recorder.finish(entry, body: [])
            throw error
        }
        entry.status = Int(response.status.code)
        entry.firstByte = recorder.offset()
        if entry.status! >= 500, request.method == .GET, !RecordedRequest.isPlaylist(contentType: nil, url: url) { probe(request) }
        for name in RecordedRequest.keptHeaders {
            if let value = response.headers[name].first { entry.headers[name] = Redactor.redactText(value) }
        }
        entry.playlist = RecordedRequest.isPlaylist(contentType: entry.headers["content-type"], url: url)
        let tape = Tape(entry: entry, recorder: recorder)
        recorder.opened(seq) { [weak tape] cut in tape?.end(cut: cut) }
        response.body = .stream(TeedBody(inner: response.body, tape: tape))
        return response
    }

    /// A segment the origin failed, asked once more `probeDelay` later by the recorder alone (the
    /// player has moved on: live, the failure was a gap): its answer is kept as a `probe`, which
    /// a replay serves only where a faults file says `ok` (the fault removed). The same request,
    /// so the same host and credentials; at most 64 MiB of it.
    private func probe(_ request: HTTPClientRequest) {
        let network = self.network, recorder = self.recorder
        Task {
            try? await Task.sleep(for: .seconds(Self.probeDelay))
            guard !recorder.isStopped else { return }
            var entry = RecordedRequest(seq: recorder.nextSeq(), method: "GET", url: RecordingKey.of(request.url), status: nil, asked: recorder.offset())
            entry.probe = true
            entry.range = request.headers["Range"].first
            recorder.opened(entry.seq) { _ in }  // one Reel stopped before is not kept: a replay never serves it as itself
            do {
                let response = try await network.execute(request, deadline: .now() + .seconds(30))
                entry.status = Int(response.status.code)
                entry.firstByte = recorder.offset()
                for name in RecordedRequest.keptHeaders {
                    if let value = response.headers[name].first { entry.headers[name] = Redactor.redactText(value) }
                }
                var body: [UInt8] = []
                for try await chunk in response.body {
                    body.append(contentsOf: chunk.readableBytesView)
                    if body.count > 64 << 20 { entry.cut = "reader"; break }
                }
                entry.lastByte = recorder.offset()
                recorder.finish(entry, body: body)
            } catch {
                entry.error = Redactor.redactText("\(error)")
                recorder.finish(entry, body: [])
            }
        }
    }

    static let probeDelay = 2.0
}

/// What came of one answer so far; written when its body ends, or when the reader lets it go.
final class Tape: Sendable {
    private let state: Mutex<(entry: RecordedRequest, bytes: [UInt8], done: Bool)>
    private let recorder: SessionRecorder

    init(entry: RecordedRequest, recorder: SessionRecorder) {
        state = Mutex((entry, [], false))
        self.recorder = recorder
    }

    func append(_ chunk: ByteBuffer) { state.withLock { $0.bytes.append(contentsOf: chunk.readableBytesView) } }

    /// `cut`: nil when the body ended, else who ended it ("upstream", "reader", "exit": Reel stopped).
    func end(cut: String?) {
        let (entry, bytes) = state.withLock { s -> (RecordedRequest?, [UInt8]) in
            guard !s.done else { return (nil, []) }
            s.done = true
            var e = s.entry
            e.lastByte = recorder.offset()
            e.cut = cut
            return (e, s.bytes)
        }
        if let entry { recorder.finish(entry, body: bytes) }
    }

    deinit { end(cut: "reader") }
}

struct TeedBody: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let inner: HTTPClientResponse.Body
    let tape: Tape

    struct AsyncIterator: AsyncIteratorProtocol {
        var inner: HTTPClientResponse.Body.AsyncIterator
        let tape: Tape
        mutating func next() async throws -> ByteBuffer? {
            do {
                guard let chunk = try await inner.next() else {
                    tape.end(cut: nil)
                    return nil
                }
                tape.append(chunk)
                return chunk
            } catch {
                tape.end(cut: "upstream")
                throw error
            }
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(inner: inner.makeAsyncIterator(), tape: tape) }
}
