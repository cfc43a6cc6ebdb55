import AsyncHTTPClient
import Foundation
import NIOCore
import ReelCore

/// Downloads a playlist (M3U, PLS, XSPF) that Reel will expand into queue items: streamed, with
/// a byte cap checked before anything is buffered past it (a declared `Content-Length` over the
/// cap is refused at once; an endless body is cut at the cap), and a deadline for the whole
/// transfer. Never on the UI thread: `fetchBlocking` is for plain threads (the command line at
/// start-up, a background queue for the socket, MPRIS and the window).
///
/// Credentials are not this type's business: a playlist that should be fetched with the user's
/// headers or token is registered with the gateway as a pass-through item and fetched through
/// the gateway's URL, so that the one set of credential rules applies (`GatewayRouter`).
public enum PlaylistDownload {
    public static let defaultMaximumBytes = 16 << 20
    public static let defaultTimeout: Double = 10

    public enum Outcome: Sendable {
        case data(Data, finalURL: URL)
        /// Not fetched (an HTTP status, a network error).
        case failed(String)
        /// Not whole within the deadline (a body that trickles): never handed on as media.
        case timedOut(String)
        /// Refused at the byte cap: not a playlist Reel will expand.
        case tooLarge(String)
    }

    /// - Parameter headers: more request headers (a `Range`, say); never credentials (see above).
    public static func fetch(_ url: URL, maximumBytes: Int = defaultMaximumBytes, timeout: Double = defaultTimeout,
                             headers: [(name: String, value: String)] = []) async -> Outcome {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.headers.add(name: "User-Agent", value: "Reel/0.1")
        request.headers.add(name: "Accept-Encoding", value: "identity")
        for header in headers { request.headers.replaceOrAdd(name: header.name, value: header.value) }
        let milliseconds = Int64(BoundedNumber.milliseconds(timeout))
        let deadline = NIODeadline.now() + .milliseconds(milliseconds)
        // One deadline for the whole transfer: the client's covers the head only, and a body sent
        // at 1 byte/s held start-up (and every later addition) for 70 s. The body is read in a
        // task that the deadline cancels, which cancels the upstream request too.
        let prepared = request
        return await withTaskGroup(of: Outcome?.self) { group in
            group.addTask { await receive(prepared, url: url, deadline: deadline, maximumBytes: maximumBytes, timeout: timeout) }
            group.addTask {
                try? await Task.sleep(for: .milliseconds(milliseconds + 50))
                return Task.isCancelled ? nil : .timedOut(String(format: tr("it did not arrive whole within %@ s"), "\(Int(timeout))"))
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? .timedOut(String(format: tr("it did not arrive whole within %@ s"), "\(Int(timeout))"))
        }
    }

    private static func receive(_ request: HTTPClientRequest, url: URL, deadline: NIODeadline, maximumBytes: Int, timeout: Double) async -> Outcome {
        do {
            let response = try await HTTPClient.shared.execute(request, deadline: deadline)
            guard (200..<300).contains(Int(response.status.code)) else { return .failed("HTTP status \(response.status.code)") }
            if let declared = response.headers["Content-Length"].first.flatMap(Int.init), declared > maximumBytes {
                return .tooLarge(String(format: tr("it is larger than %@ MiB (%@ bytes declared)"), "\(maximumBytes >> 20)", "\(declared)"))
            }
            var body = ByteBuffer()
            for try await chunk in response.body {
                guard body.readableBytes + chunk.readableBytes <= maximumBytes else {
                    return .tooLarge(String(format: tr("it is larger than %@ MiB"), "\(maximumBytes >> 20)"))
                }
                var c = chunk
                body.writeBuffer(&c)
            }
            return .data(Data(body.readableBytesView), finalURL: response.url ?? url)
        } catch {
            let text = "\(error)"
            if text.contains("deadlineExceeded") || text.lowercased().contains("timeout") {
                return .timedOut(String(format: tr("it did not arrive whole within %@ s"), "\(Int(timeout))"))
            }
            return .failed(Redactor.redactText(text))
        }
    }

    /// `fetch` for plain threads. Never call it from a Swift concurrency thread.
    public static func fetchBlocking(_ url: URL, maximumBytes: Int = defaultMaximumBytes, timeout: Double = defaultTimeout,
                                     headers: [(name: String, value: String)] = []) -> Outcome {
        let box = BlockingBox<Outcome>()
        Task.detached { box.put(await fetch(url, maximumBytes: maximumBytes, timeout: timeout, headers: headers)) }
        return box.take()
    }
}
