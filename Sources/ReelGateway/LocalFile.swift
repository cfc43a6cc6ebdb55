import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import ReelCore

/// A local HLS stream's files, answered as an upstream would: hlsdemux2 (playbin3, GStreamer
/// 1.22) downloads playlists, keys and segments with libsoup only, so a `.m3u8` on disk cannot
/// be played directly; the gateway serves it (and every file it names) over loopback instead.
/// Only an item whose own URL is a `file:` URL may read files, never a network item.
enum LocalFile {
    static let chunkSize = 64 * 1024

    static func fetch(_ url: URL, item: GatewayItem, head: HTTPRequestHead) -> Result<GatewayRequestHandler.Upstream, GatewayRequestHandler.Failure> {
        let started = ContinuousClock.now
        func failure(_ status: HTTPResponseStatus, _ kind: PlaybackErrorKind, _ message: String) -> Result<GatewayRequestHandler.Upstream, GatewayRequestHandler.Failure> {
            .failure(.init(status: status, error: PlaybackError(kind: kind, message: message, httpStatus: Int(status.code), uri: url.absoluteString)))
        }
        guard item.url.isFileURL, url.isFileURL else {
            return failure(.forbidden, .notAuthorized, "A network stream may not read local files.")
        }
        let path = url.path
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              attributes[.type] as? FileAttributeType == .typeRegular,
              let size = (attributes[.size] as? NSNumber)?.int64Value, FileManager.default.isReadableFile(atPath: path) else {
            return failure(.notFound, .notFound, "The file \(MediaLocator.displayName(of: url.absoluteString)) does not exist or cannot be read.")
        }
        var status = HTTPResponseStatus.ok
        var range: ClosedRange<Int64>? = size > 0 ? 0...(size - 1) : nil
        var headers = HTTPHeaders()
        headers.add(name: "Accept-Ranges", value: "bytes")
        headers.add(name: "Content-Type", value: contentType(url.pathExtension))
        if let requested = head.headers["Range"].first {
            guard let r = byteRange(requested, size: size) else {
                headers.add(name: "Content-Range", value: "bytes */\(size)")
                headers.add(name: "Content-Length", value: "0")
                let response = HTTPClientResponse(status: .rangeNotSatisfiable, headers: headers, body: .bytes(ByteBuffer()))
                return .success(.init(response: response, url: url, requestURL: url.absoluteString, method: head.method.rawValue, started: started, note: "local"))
            }
            status = .partialContent
            range = r
            headers.add(name: "Content-Range", value: "bytes \(r.lowerBound)-\(r.upperBound)/\(size)")
        }
        let length = range.map { $0.upperBound - $0.lowerBound + 1 } ?? 0
        headers.add(name: "Content-Length", value: String(length))
        let body: HTTPClientResponse.Body = head.method == .HEAD || range == nil
            ? .bytes(ByteBuffer())
            : .stream(Chunks(path: path, offset: range!.lowerBound, length: length))
        return .success(.init(response: HTTPClientResponse(status: status, headers: headers, body: body),
                              url: url, requestURL: url.absoluteString, method: head.method.rawValue, started: started, note: "local"))
    }

    /// `bytes=a-b`, `bytes=a-` or `bytes=-n` within `size`; nil when it cannot be satisfied.
    static func byteRange(_ header: String, size: Int64) -> ClosedRange<Int64>? { HTTPByteRange.resolve(header, size: size) }

    static func contentType(_ ext: String) -> String {
        switch ext.lowercased() {
        case "m3u8", "m3u": "application/vnd.apple.mpegurl"
        case "ts": "video/mp2t"
        case "mp4", "m4s", "m4v": "video/mp4"
        case "m4a", "aac": "audio/mp4"
        case "vtt": "text/vtt"
        default: "application/octet-stream"
        }
    }

    /// The file's bytes in `chunkSize` pieces, read as they are consumed (the relay's writes
    /// pace the reads, as with an upstream body).
    struct Chunks: AsyncSequence, Sendable {
        typealias Element = ByteBuffer
        let path: String
        let offset: Int64
        let length: Int64

        func makeAsyncIterator() -> Iterator { Iterator(path: path, offset: offset, remaining: length) }

        final class Iterator: AsyncIteratorProtocol {
            private var handle: FileHandle?
            private var remaining: Int64

            init(path: String, offset: Int64, remaining: Int64) {
                self.remaining = remaining
                handle = FileHandle(forReadingAtPath: path)
                if let handle { try? handle.seek(toOffset: UInt64(offset)) }
            }

            func next() async throws -> ByteBuffer? {
                guard remaining > 0, let handle else { close(); return nil }
                let data = try handle.read(upToCount: Int(Swift.min(Int64(LocalFile.chunkSize), remaining))) ?? Data()
                guard !data.isEmpty else { close(); return nil }  // the file shrank: end early
                remaining -= Int64(data.count)
                return ByteBuffer(bytes: data)
            }

            private func close() {
                try? handle?.close()
                handle = nil
            }

            deinit { try? handle?.close() }
        }
    }
}
