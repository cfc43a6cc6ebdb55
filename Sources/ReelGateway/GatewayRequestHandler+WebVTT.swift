import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import ReelCore

extension GatewayRequestHandler {
    /// A WebVTT segment of a subtitle rendition: read whole and passed on ending with a blank
    /// line (`WebVTTSegment`: GStreamer 1.22's subparse loses a cue that the next segment's
    /// header follows). One larger than a playlist may be is passed on as it is.
    func relayWebVTT(_ response: HTTPClientResponse, first: ByteBuffer?, iterator: inout HTTPClientResponse.Body.AsyncIterator,
                     bytes: inout Int64, head: HTTPRequestHead, outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>) async throws -> Bool {
        var body = first ?? ByteBuffer()
        var whole = true
        while whole, let chunk = try await iterator.next() {
            bytes += Int64(chunk.readableBytes)
            var c = chunk
            body.writeBuffer(&c)
            whole = body.readableBytes <= maximumPlaylistBytes
        }
        var headers = HTTPHeaders()
        let original = Array(body.readableBytesView)
        let output = whole ? WebVTTSegment.terminated(original) ?? original : original
        for name in Self.forwardedResponseHeaders where !(whole && name == "Content-Length") {
            for value in response.headers[name] { headers.add(name: name, value: value) }
        }
        if whole { headers.add(name: "Content-Length", value: String(output.count)) }
        if !head.isKeepAlive { headers.add(name: "Connection", value: "close") }
        try await outbound.write(.head(HTTPResponseHead(version: head.version, status: response.status, headers: headers)))
        try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: output))))
        while !whole, let chunk = try await iterator.next() {  // too large: the rest as it comes
            bytes += Int64(chunk.readableBytes)
            try await outbound.write(.body(.byteBuffer(chunk)))
        }
        try await outbound.write(.end(nil))
        return head.isKeepAlive
    }
}
