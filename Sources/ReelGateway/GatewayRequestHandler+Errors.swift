import AsyncHTTPClient
import Foundation
import NIOSSL
import ReelCore

// What a failed upstream request is said to be, for the item's error.
extension GatewayRequestHandler {
    /// A refusal, naming what was refused (the stream's manifest or playlist, a variant, a
    /// segment, an init segment, a key) and where.
    func notAuthorized(status: Int, url: URL, kind: HLSURIKind?) -> PlaybackError {
        var error = ErrorMapper.http(status: status, uri: url.absoluteString)
        let what: String = switch kind {
        case nil: "the stream's manifest"
        case .variant?, .rendition?, .iFramePlaylist?, .renditionReport?: "the playlist"
        case .segment?, .part?, .preloadHint?: "the segment"
        case .map?: "the init segment"
        case .key?, .sessionKey?: "the key"
        default: "the request for"
        }
        error.message = "Not authorized: the server refused \(what) \(error.uri ?? "") with HTTP \(status)."
        return error
    }

    func networkError(_ error: any Error, url: URL) -> PlaybackError { Self.networkError(error, url: url) }

    /// What a failed upstream request means, said as it happened (issue 46, item 15): a request
    /// that waited for one of the gateway's own connections (all held by other transfers to that
    /// server) never reached the server, and a server that accepted no connection is not one that
    /// "stopped answering".
    static func networkError(_ error: any Error, url: URL) -> PlaybackError {
        let text = "\(error)"
        let host = url.host ?? "the server"
        if let client = error as? HTTPClientError {
            if client == .getConnectionFromPoolTimeout {
                return PlaybackError(kind: .timeout, message: "Reel's gateway had no free connection to \(host) in time: every one was held by another transfer to that server; "
                                     + "the request was not sent (\(Redactor.redactURL(url.absoluteString))).", debug: text, uri: url.absoluteString)
            }
            if client == .connectTimeout {
                return PlaybackError(kind: .timeout, message: "\(host) did not accept a connection in time (\(Redactor.redactURL(url.absoluteString))).",
                                     debug: text, uri: url.absoluteString)
            }
        }
        if error is NIOSSLError || text.contains("CERTIFICATE_VERIFY_FAILED") {
            let why = text.contains("CERTIFICATE_VERIFY_FAILED") || text.contains("unableToValidateCertificate")
                ? "its certificate is not trusted (give the issuing CA with --ca-file)"
                : "the TLS handshake failed"
            return PlaybackError(kind: .network, message: "The secure connection to \(host) failed: \(why) (\(Redactor.redactURL(url.absoluteString)))",
                                 debug: text, uri: url.absoluteString)
        }
        let kind: PlaybackErrorKind = text.lowercased().contains("timeout") || text.contains("deadline") ? .timeout : .network
        return PlaybackError(kind: kind, message: "\(ErrorMapper.userMessage(kind, context: .init(uri: url.absoluteString))) (\(Redactor.redactURL(url.absoluteString)))",
                             debug: text, uri: url.absoluteString)
    }
}
