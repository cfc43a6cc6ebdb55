import AsyncHTTPClient
import NIOCore

/// An upstream answer's body as the relay reads it: what a repair looked at (its first chunk, or
/// the whole of it) is kept and streamed on first unless the repair replaced it; `bytes` counts
/// what came from upstream, for the log.
struct UpstreamBody {
    private var iterator: HTTPClientResponse.Body.AsyncIterator
    private var pending: [ByteBuffer] = []
    /// The whole body is to have come by then (`whole`): a playlist that crawls in is refused.
    private let until: ContinuousClock.Instant
    private(set) var bytes: Int64 = 0

    init(_ body: HTTPClientResponse.Body, until: ContinuousClock.Instant) {
        iterator = body.makeAsyncIterator()
        self.until = until
    }

    enum Whole: Equatable {
        case whole([UInt8])
        /// Larger than the bound: what was read is streamed on as it is.
        case tooLarge
        /// Not whole by the deadline.
        case late
        var bytes: [UInt8]? { if case .whole(let b) = self { b } else { nil } }
    }

    /// The first chunk (read once; nil for an empty body).
    mutating func first() async throws -> ByteBuffer? {
        if pending.isEmpty, let chunk = try await read() { pending.append(chunk) }
        return pending.first
    }

    /// The whole body, when it comes within `limit` bytes and the deadline.
    mutating func whole(within limit: Int) async throws -> Whole {
        var total = pending.reduce(0) { $0 + $1.readableBytes }
        guard total <= limit else { return .tooLarge }
        while let chunk = try await read() {
            pending.append(chunk)
            total += chunk.readableBytes
            guard ContinuousClock.now < until else { return .late }
            guard total <= limit else { return .tooLarge }
        }
        var all: [UInt8] = []
        all.reserveCapacity(total)
        for chunk in pending { all.append(contentsOf: chunk.readableBytesView) }
        return .whole(all)
    }

    /// What was read ahead was replaced by a repair: not streamed.
    mutating func dropPending() { pending.removeAll() }

    /// The next chunk to stream: what was read ahead first, then upstream's.
    mutating func next() async throws -> ByteBuffer? {
        if !pending.isEmpty { return pending.removeFirst() }
        return try await read()
    }

    private mutating func read() async throws -> ByteBuffer? {
        guard let chunk = try await iterator.next() else { return nil }
        bytes += Int64(chunk.readableBytes)
        return chunk
    }
}
