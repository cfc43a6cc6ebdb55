import Foundation
import ReelCore
import ReelGateway
import Synchronization

/// Decides which items go through the gateway, starts it on first need, and hands back the URI
/// playbin3 should get. It also remembers what the gateway saw go wrong per item, so that the
/// player's error (often vague for HLS: "wrong type", "not found") can be replaced with the
/// gateway's ("not authorized … HTTP 401").
final class GatewayRouter: Sendable {
    let settings: ProtectedStreamSettings
    private let state = Mutex<State>(State())
    private let provider: TokenProvider?

    private struct State {
        var gateway: Gateway?
        /// Gateway URL → item id.
        var routed: [String: GatewayItemID] = [:]
        /// Gateway URL → the item's own URI.
        var originals: [String: String] = [:]
        var errors: [GatewayItemID: PlaybackError] = [:]
    }

    init(settings: ProtectedStreamSettings) {
        self.settings = settings
        if let file = settings.tokenFile {
            provider = TokenProvider.file(file, bucket: settings.bucket)
        } else if let url = settings.tokenURL {
            provider = TokenEndpoint.provider(url: url, bucket: settings.bucket)
        } else {
            provider = nil
        }
    }

    /// The URI to load for `input` (a path or URI): the gateway's URL for protected network
    /// items, the input's URI otherwise. Throws when the gateway cannot start.
    func uri(for input: String, finished: Bool? = nil, endsAt: Date? = nil) throws -> String {
        let uri = MediaLocator.uri(for: input)
        guard settings.isActive, MediaLocator.isNetwork(uri), let url = URL(string: uri) else { return uri }
        let gateway = try startedGateway()
        let item = GatewayItem(url: url, headers: settings.headers, allowedHosts: settings.allowedHosts, tokenProvider: provider,
                               placement: settings.placement, finished: finished ?? settings.finished, endsAt: endsAt)
        let (id, routed) = gateway.register(item)
        state.withLock {
            $0.routed[routed.absoluteString] = id
            $0.originals[routed.absoluteString] = uri
        }
        return routed.absoluteString
    }

    /// `uri(for:)` for the session: when the gateway cannot start, says so on stderr and returns
    /// the item's own URI (which then fails or plays without the headers).
    func loadURI(for input: String) -> String {
        do { return try uri(for: input) } catch {
            FileHandle.standardError.write(Data("reel: the protected-stream gateway could not start: \(error)\n".utf8))
            return MediaLocator.uri(for: input)
        }
    }

    /// The item's own URI for a gateway URL (what events and reports should name).
    func originalURI(for routedURI: String) -> String? { state.withLock { $0.originals[routedURI] } }

    /// An event as the user should see it: item URIs are the item's own, and an error is the
    /// gateway's when it saw what went wrong.
    func refine(_ event: PlayerEvent, uri: String?) -> PlayerEvent {
        switch event {
        case .itemChanged(let index, let routed, let title):
            guard let original = originalURI(for: routed) else { return event }
            return .itemChanged(index: index, uri: Redactor.redactURL(original), title: title)
        case .error(let error):
            return .error(refine(error, uri: uri))
        case .status(.failed(let error)):
            return .status(.failed(refine(error, uri: uri)))
        default:
            return event
        }
    }

    /// The gateway's error for a routed URI, when it saw one (the first not-authorized one wins).
    func gatewayError(for routedURI: String) -> PlaybackError? {
        state.withLock { s in s.routed[routedURI].flatMap { s.errors[$0] } }
    }

    /// The error to show for a failed item: the gateway's when it has one, the player's otherwise.
    func refine(_ error: PlaybackError, uri: String?) -> PlaybackError {
        guard let uri, originalURI(for: uri) != nil else { return error }
        if let gatewayError = gatewayError(for: uri) { return gatewayError }
        var error = error
        error.uri = originalURI(for: uri).map(Redactor.redactURL)
        return error
    }

    /// Forgets a routed item (its gateway URLs stop working).
    func release(_ routedURI: String) {
        let id = state.withLock { s in
            s.originals.removeValue(forKey: routedURI)
            return s.routed.removeValue(forKey: routedURI)
        }
        if let id { state.withLock { $0.gateway }?.unregister(id) }
    }

    var gateway: Gateway? { state.withLock { $0.gateway } }

    func shutdown() {
        let gateway = state.withLock { s -> Gateway? in
            defer { s.gateway = nil }
            return s.gateway
        }
        gateway?.shutdownBlocking()
    }

    private func startedGateway() throws -> Gateway {
        if let g = state.withLock({ $0.gateway }) { return g }
        let gateway = try Gateway.startBlocking(.init(httpLogPath: settings.httpLogPath))
        gateway.setErrorHandler { [weak self] id, error in
            self?.state.withLock { s in
                // Keep the first error, unless a not-authorized one comes later (it explains the rest).
                if let old = s.errors[id], old.kind == .notAuthorized || error.kind != .notAuthorized { return }
                s.errors[id] = error
            }
        }
        state.withLock { $0.gateway = gateway }
        return gateway
    }
}
