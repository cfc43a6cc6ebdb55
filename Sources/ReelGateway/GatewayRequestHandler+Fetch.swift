import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import ReelCore

extension GatewayRequestHandler {
    /// Fetches a resource: redirects followed here (credentials scoped), one token refresh on
    /// 401/403. Every attempt is logged.
    func fetch(item: GatewayItem, id: GatewayItemID, resource: GatewayRegistry.Resource, head: HTTPRequestHead,
                       deadline: NIODeadline = .distantFuture) async -> Result<Upstream, Failure> {
        // Only a local item's own files are read from disk; its http(s) references (a local
        // playlist of network segments) are fetched upstream, without credentials (no origin).
        if resource.url.isFileURL { return LocalFile.fetch(resource.url, item: item, head: head) }
        let scope = item.scope
        var token: String?
        if let provider = item.tokenProvider {
            do { token = try await provider.token() } catch {
                return .failure(Failure(status: .unauthorized, error: PlaybackError(
                    kind: .notAuthorized, message: "No token for this stream: \(error)", uri: resource.url.absoluteString)))
            }
        }
        var refreshed = false
        var notes: [String] = []
        attempt: while true {
            var url = resource.url
            var credentials = scope.allows(url)
            for _ in 0...RedirectCredentialRule.maximumRedirects {
                let request = makeRequest(url: url, kind: resource.kind, credentials: credentials, token: token, item: item, head: head)
                let started = ContinuousClock.now
                upstreamRequests.withLock { $0 += 1 }
                let response: HTTPClientResponse
                do {
                    response = try await upstream.execute(request, deadline: deadline)
                } catch {
                    logLine(request.method.rawValue, request.url, status: nil, bytes: 0, started: started, note: "\(error)")
                    return .failure(Failure(status: .badGateway, error: networkError(error, url: url)))
                }
                let status = Int(response.status.code)
                if RedirectCredentialRule.isRedirect(status), let location = response.headers["Location"].first,
                   let target = RedirectCredentialRule.target(location: location, requestURL: url) {
                    let drained = await drain(response)
                    let keeps = credentials && RedirectCredentialRule.keepsCredentials(from: url, to: target, scope: scope)
                    logLine(request.method.rawValue, request.url, status: status, bytes: drained, started: started,
                            note: keeps || !credentials ? "redirect" : "redirect credentials-dropped")
                    credentials = keeps
                    url = target
                    continue
                }
                if status == 401 || status == 403 {
                    let drained = await drain(response)
                    if let provider = item.tokenProvider, !refreshed {
                        logLine(request.method.rawValue, request.url, status: status, bytes: drained, started: started, note: "refreshing-token")
                        refreshed = true
                        notes.append("retry")
                        do { token = try await provider.refresh(rejected: token) } catch {
                            return .failure(Failure(status: HTTPResponseStatus(statusCode: status), error: PlaybackError(
                                kind: .notAuthorized, message: "Access was refused (HTTP \(status)) and no fresh token could be had: \(error)",
                                httpStatus: status, uri: url.absoluteString)))
                        }
                        continue attempt
                    }
                    logLine(request.method.rawValue, request.url, status: status, bytes: drained, started: started, note: "not-authorized")
                    return .failure(Failure(status: HTTPResponseStatus(statusCode: status), error: notAuthorized(status: status, url: url, kind: resource.kind)))
                }
                return .success(Upstream(response: response, url: url, requestURL: request.url, method: request.method.rawValue,
                                         started: started, note: notes.isEmpty ? nil : notes.joined(separator: " ")))
            }
            return .failure(Failure(status: .badGateway, error: PlaybackError(
                kind: .network, message: "Too many redirects (more than \(RedirectCredentialRule.maximumRedirects)).", uri: resource.url.absoluteString)))
        }
    }

    private func makeRequest(url: URL, kind: HLSURIKind?, credentials: Bool, token: String?, item: GatewayItem, head: HTTPRequestHead) -> HTTPClientRequest {
        var target = url.absoluteString
        if credentials, let token {
            // The provider's token replaces any `Authorization` parameter the URL already had
            // (a stale one from the item's URL or a playlist): in the query when placed there,
            // otherwise it is only removed, and the header carries the token.
            target = item.placement.usesQuery
                ? URIReference.settingQueryParameter(TokenPlacement.parameterName, to: token, in: target)
                : URIReference.removingQueryParameter(TokenPlacement.parameterName, from: target)
        }
        var request = HTTPClientRequest(url: target)
        request.method = head.method == .HEAD ? .HEAD : .GET
        // Playlists are fetched whole (they are rewritten): no Range for them.
        let ext = url.pathExtension.lowercased()
        let wholeBody = kind?.isPlaylist == true || ext == "m3u8" || ext == "m3u" || ext == "mpd"
        for name in Self.forwardedRequestHeaders where !(wholeBody && (name == "Range" || name == "If-Range")) {
            for value in head.headers[name] { request.headers.add(name: name, value: value) }
        }
        if !request.headers.contains(name: "User-Agent") { request.headers.add(name: "User-Agent", value: "Reel/0.1") }
        request.headers.replaceOrAdd(name: "Accept-Encoding", value: "identity")
        if credentials {
            for header in item.headers { request.headers.replaceOrAdd(name: header.name, value: header.value) }
            if let token, item.placement.usesHeader { request.headers.replaceOrAdd(name: TokenPlacement.parameterName, value: token) }
        }
        return request
    }

    /// Whether an HLS master's variant answers (nil) or why not (`VariantAvailability`): asked for
    /// with the item's credentials as any request of it, head and body within 5 s; a playlist that
    /// answers is kept for the player, which asks for it next (not fetched again).
    func probeVariant(_ url: URL, _ context: RepairContext) async -> PlaybackError? {
        var probe = HTTPRequestHead(version: context.request.version, method: .GET, uri: context.request.uri)
        for name in ["User-Agent", "Accept"] { for value in context.request.headers[name] { probe.headers.add(name: name, value: value) } }
        guard let index = registry.resourceIndex(item: context.id, url: url, kind: .variant),
              let (_, resource) = registry.resource(item: context.id, index: index) else { return nil }
        switch await fetch(item: context.item, id: context.id, resource: resource, head: probe, deadline: .now() + .seconds(5)) {
        case .failure(let f): return f.error
        case .success(let u):
            let status = Int(u.response.status.code)
            var body = UpstreamBody(u.response.body, until: ContinuousClock.now + .seconds(5))
            let text: String
            do {
                guard let bytes = try await body.whole(within: maximumPlaylistBytes).bytes else {
                    // An endless or crawling body is no playlist to wait for.
                    return PlaybackError(kind: .timeout, message: "The variant's playlist did not arrive whole within 5 s.", uri: url.absoluteString)
                }
                text = String(decoding: bytes, as: UTF8.self)
            } catch {
                return PlaybackError(kind: .network, message: "The variant's playlist was cut short: \(error)", uri: url.absoluteString)
            }
            logLine(u.method, u.requestURL, status: status, bytes: body.bytes, started: u.started, note: "variant-check")
            guard status < 400 else { return ErrorMapper.http(status: status, uri: url.absoluteString) }
            if status == 200, HLSPlaylist.looksLikePlaylist(text[...]) {
                masters.store(text, base: u.url, item: context.id, resource: index, once: true)
            }
            return nil
        }
    }
}
