import ReelCore
import XCTest

/// The error table: GStreamer errors as they were seen on the bus for each bad input (the
/// debug strings are abridged copies of real ones), and the kind a user gets.
final class ErrorMapperTests: XCTestCase {
    private let stream = ErrorMapper.Domain.stream.quark
    private let resource = ErrorMapper.Domain.resource.quark
    private let http = "http://127.0.0.1:9/media.mp4"
    private let soupFlow = "../libs/gst/base/gstbasesrc.c(3132): gst_base_src_loop (): /GstPlayBin3:playbin3-0/GstURIDecodeBin3:uridecodebin3/GstURISourceBin:urisourcebin0/GstSoupHTTPSrc:souphttpsrc0:\nstreaming stopped, reason error (-5)"

    private struct Row {
        let name: String
        let domain: String
        let code: Int
        let message: String
        let debug: String?
        let context: ErrorMapper.Context
        let kind: PlaybackErrorKind
    }

    private var table: [Row] {
        let file = "file:///m/x.mp4"
        return [
            Row(name: "missing file", domain: resource, code: 3, message: "Resource not found.", debug: nil,
                context: .init(uri: file, isLocalFile: true, localFileSize: nil), kind: .notFound),
            Row(name: "zero-byte file", domain: resource, code: 3, message: "local check", debug: nil,
                context: .init(uri: file, isLocalFile: true, localFileSize: 0), kind: .emptyFile),
            Row(name: "text named .mp4", domain: stream, code: 5, message: "This appears to be a text file",
                debug: "gstparsebin.c(2394): type_found (): ParseBin cannot parse plain text files",
                context: .init(uri: file, isLocalFile: true, localFileSize: 2240), kind: .unsupportedFormat),
            Row(name: "random bytes", domain: stream, code: 4, message: "Could not determine type of stream.",
                debug: "gsttypefindelement.c(1186): gst_type_find_element_loop ()",
                context: .init(uri: file, isLocalFile: true, localFileSize: 200_000), kind: .unsupportedFormat),
            Row(name: "damaged moov", domain: stream, code: 9, message: "This file contains no playable streams.",
                debug: "qtdemux.c(509): gst_qtdemux_post_no_playable_stream_error ()",
                context: .init(uri: file, isLocalFile: true, localFileSize: 900_000), kind: .corrupt),
            Row(name: "cut before moov", domain: stream, code: 9, message: "This file is incomplete and cannot be played.",
                debug: "qtdemux.c(4677): gst_qtdemux_loop_state_header ()",
                context: .init(uri: file, isLocalFile: true, localFileSize: 1500), kind: .corrupt),
            Row(name: "HTTP 404", domain: resource, code: 3, message: "Not Found", debug: "souphttpsrc: Not Found (404)",
                context: .init(uri: http, httpStatus: 404), kind: .notFound),
            Row(name: "HTTP 500", domain: resource, code: 1, message: "Internal Server Error", debug: nil,
                context: .init(uri: http, httpStatus: 500), kind: .serverError),
            Row(name: "HTTP 401 on the master", domain: resource, code: 15, message: "Unauthorized", debug: nil,
                context: .init(uri: http, httpStatus: 401), kind: .notAuthorized),
            // souphttpsrc posts the same flow error for a reset, a non-HTTP answer and a stall.
            Row(name: "connection reset", domain: stream, code: 1, message: "Internal data stream error.", debug: soupFlow,
                context: .init(uri: http, networkSourceFailed: true, sourceSilence: 0.01, networkTimeout: 2), kind: .network),
            Row(name: "garbage instead of HTTP", domain: stream, code: 1, message: "Internal data stream error.", debug: soupFlow,
                context: .init(uri: http, networkSourceFailed: true, sourceSilence: 0.02, networkTimeout: 15), kind: .network),
            Row(name: "stalled server", domain: stream, code: 1, message: "Internal data stream error.", debug: soupFlow,
                context: .init(uri: http, networkSourceFailed: true, sourceSilence: 2.003, networkTimeout: 2), kind: .timeout),
            Row(name: "stall just short of the timeout", domain: stream, code: 1, message: "Internal data stream error.", debug: soupFlow,
                context: .init(uri: http, networkSourceFailed: true, sourceSilence: 1.2, networkTimeout: 2), kind: .network),
            Row(name: "body shorter than Content-Length", domain: resource, code: 11, message: "Server does not support seeking.",
                debug: "gstsouphttpsrc.c(1948): gst_soup_http_src_do_request (): Server does not accept Range HTTP header",
                context: .init(uri: http, httpStatus: 200, networkSourceFailed: true, sourceSilence: 0.1, networkTimeout: 15), kind: .network),
            // The same flow error from a demuxer (not the network source) is damaged data.
            Row(name: "flow error in a demuxer", domain: stream, code: 1, message: "Internal data stream error.",
                debug: "gstqtdemux.c: streaming stopped, reason error (-5)",
                context: .init(uri: http, networkSourceFailed: false), kind: .corrupt),
            Row(name: "read timeout in the message", domain: resource, code: 9, message: "Could not read from resource.",
                debug: "Socket I/O timed out", context: .init(uri: http), kind: .timeout),
        ]
    }

    func testDomainsAreKnownByTheirQuarksNames() {
        XCTAssertEqual(ErrorMapper.Domain(quark: "gst-resource-error-quark"), .resource)
        XCTAssertEqual(ErrorMapper.Domain(quark: "gst-core-error-quark"), .core)
        XCTAssertEqual(ErrorMapper.Domain(quark: "g-io-error-quark"), .other, "not one of GStreamer's four")
        XCTAssertEqual(ErrorMapper.Domain(quark: ""), .other)
        XCTAssertEqual(ErrorMapper.Domain.stream.quark, "gst-stream-error-quark")
    }

    func testTable() {
        for row in table {
            let error = ErrorMapper.map(domain: row.domain, code: row.code, message: row.message, debug: row.debug, context: row.context)
            XCTAssertEqual(error.kind, row.kind, row.name)
            XCTAssertFalse(error.message.isEmpty, row.name)
        }
    }

    func testTimeoutMessageNamesTheStall() {
        let error = ErrorMapper.map(domain: stream, code: 1, message: "Internal data stream error.", debug: soupFlow,
                                    context: .init(uri: http, networkSourceFailed: true, sourceSilence: 3, networkTimeout: 3))
        XCTAssertEqual(error.code, "timeout")
        XCTAssertEqual(error.message, "The server stopped answering.")
    }
}
