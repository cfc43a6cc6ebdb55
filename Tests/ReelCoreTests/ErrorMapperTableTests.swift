import ReelCore
import XCTest

/// The one mapping from GStreamer's domain/code/details (and what the engine knows) to a kind.
final class ErrorMapperTableTests: XCTestCase {
    private let resource = "gst-resource-error-quark", stream = "gst-stream-error-quark", core = "gst-core-error-quark"

    func testTable() {
        typealias C = ErrorMapper.Context
        let local = C(uri: "file:///a.mp4", isLocalFile: true, localFileSize: 1000)
        let web = C(uri: "https://h/a.m3u8")
        let table: [(String, Int, String, C, PlaybackErrorKind)] = [
            (resource, 3, "Could not open", C(uri: "file:///x", isLocalFile: true, localFileSize: nil), .notFound),
            (stream, 4, "Stream contains no data", C(uri: "file:///x", isLocalFile: true, localFileSize: 0), .emptyFile),
            (stream, 4, "This appears to be a text file", local, .unsupportedFormat),
            (stream, 5, "wrong type", local, .unsupportedFormat),
            (stream, 9, "This file contains no playable streams", local, .corrupt),
            (stream, 11, "format error", local, .corrupt),
            (stream, 7, "decode error", local, .decode),
            (stream, 6, "no decoder", local, .missingCodec),
            (core, 12, "missing plugin", local, .missingCodec),
            // 401 on the master playlist: RESOURCE/NOT_AUTHORIZED with the status in the details.
            (resource, 15, "Unauthorized", C(uri: web.uri, httpStatus: 401), .notAuthorized),
            // hlsdemux2 segment 401: RESOURCE/NOT_FOUND with http-status-code=401.
            (resource, 3, "Not found", C(uri: web.uri, httpStatus: 401), .notAuthorized),
            (resource, 3, "Not Found", C(uri: web.uri, httpStatus: 404), .notFound),
            // hlsdemux2: a download whose transfer broke after its 200 (seen under load, said
            // as "no such stream (HTTP 200)"): the network's, and retried.
            (resource, 3, "Couldn't download fragments", C(uri: web.uri, httpStatus: 200), .network),
            (resource, 5, "Could not connect: Connection refused", web, .network),
            (resource, 9, "Socket I/O timed out", web, .timeout),
            (resource, 3, "Server error", C(uri: web.uri, httpStatus: 503), .serverError),
            (resource, 13, "Could not open display", local, .output),
            ("some-other-quark", 1, "weird", local, .unknown),
        ]
        for (domain, code, message, context, kind) in table {
            let e = ErrorMapper.map(domain: domain, code: code, message: message, debug: nil, context: context)
            XCTAssertEqual(e.kind, kind, "\(domain) \(code) \(message)")
            XCTAssertFalse(e.message.isEmpty)
            XCTAssertFalse(e.message.contains("gst-"), "user text must be plain words: \(e.message)")
        }
    }

    /// A server that ignores Range (Python's http.server): souphttpsrc's words become a specific
    /// message, not "the network connection failed".
    func testAServerWithoutRangeSaysSo() {
        let e = ErrorMapper.map(domain: resource, code: 11, message: "Server does not accept Range HTTP header, URL: http://h/a.mp4, Redirect to: (NULL)",
                                debug: nil, context: ErrorMapper.Context(uri: "http://h/a.mp4", httpStatus: 200))
        XCTAssertEqual(e.kind, .network)
        XCTAssertEqual(e.message, "The server cannot seek in this file (it ignores HTTP Range requests): it plays from its start only.")
        let other = ErrorMapper.map(domain: resource, code: 5, message: "Could not connect: Connection refused", debug: nil, context: ErrorMapper.Context(uri: "http://h/a.mp4"))
        XCTAssertEqual(other.message, "The network connection failed.")
    }

    func testHTTPStatuses() {
        let table: [(Int, PlaybackErrorKind)] = [(401, .notAuthorized), (403, .notAuthorized), (404, .notFound),
                                                 (410, .notFound), (500, .serverError), (503, .serverError), (504, .timeout), (418, .unknown)]
        for (status, kind) in table {
            let e = ErrorMapper.http(status: status, uri: "https://cdn.example/a.ts?token=SECRET123")
            XCTAssertEqual(e.kind, kind, "\(status)")
            XCTAssertEqual(e.httpStatus, status)
            XCTAssertFalse(e.uri?.contains("SECRET123") ?? true, "the uri is redacted")
        }
    }

    func testDebugTextIsKeptForLogsAndRedacted() {
        let e = ErrorMapper.map(domain: resource, code: 15, message: "Unauthorized", debug: "GET https://h/a.m3u8?token=abcdef123 Authorization: Bearer xyz.abc",
                                context: .init(uri: "https://h/a.m3u8?token=abcdef123", httpStatus: 401))
        XCTAssertTrue(e.debug?.contains("gst-resource-error-quark:15") ?? false)
        XCTAssertFalse(e.debug?.contains("abcdef123") ?? true)
        XCTAssertFalse(e.debug?.contains("xyz.abc") ?? true)
        XCTAssertTrue(e.message.contains("401"))
    }
}
