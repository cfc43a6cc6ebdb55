import Foundation
import Synchronization

/// Hands out the token for one bucket from a `TokenDocument` source (a file, an HTTP endpoint
/// through a caller-supplied loader, or a fixed value), caches it, and reloads it when a server
/// rejects it. Every token it sees is registered with `Redactor`.
///
/// Concurrent rejections of the same token cause one reload: `refresh(rejected:)` reloads only
/// when the rejected token is still the current one.
public final class TokenProvider: Sendable {
    public typealias Loader = @Sendable () async throws -> Data

    public let bucket: String?
    /// Where tokens come from, for error text (redacted).
    public let source: String
    private let loader: Loader
    private let state = Mutex<(current: String?, loads: Int)>((nil, 0))

    public init(bucket: String?, source: String, loader: @escaping Loader) {
        self.bucket = bucket
        self.source = source
        self.loader = loader
    }

    /// Tokens from a JSON file (see `TokenDocument`), re-read on every refresh.
    public static func file(_ path: String, bucket: String?) -> TokenProvider {
        TokenProvider(bucket: bucket, source: path) {
            try Data(contentsOf: URL(fileURLWithPath: (path as NSString).expandingTildeInPath))
        }
    }

    /// One fixed token (the API's simplest form). Refreshing returns the same token.
    public static func fixed(_ token: String, bucket: String? = nil) -> TokenProvider {
        Redactor.register(secret: token)
        let doc = TokenDocument(tokens: [.init(bucket: bucket ?? "default", token: token)])
        let data = (try? JSONEncoder().encode(doc)) ?? Data()
        return TokenProvider(bucket: bucket ?? "default", source: "fixed token") { data }
    }

    /// How many times the source was loaded (1 after the first token, +1 per real refresh).
    public var loadCount: Int { state.withLock { $0.loads } }

    /// The current token, loading it on first use.
    public func token() async throws(TokenError) -> String {
        if let current = state.withLock({ $0.current }) { return current }
        return try await load()
    }

    /// A fresh token after `rejected` was refused. Reloads only if `rejected` is still current
    /// (another request may have refreshed already).
    public func refresh(rejected: String?) async throws(TokenError) -> String {
        if let current = state.withLock({ $0.current }), current != rejected { return current }
        return try await load()
    }

    private func load() async throws(TokenError) -> String {
        let data: Data
        do {
            data = try await loader()
        } catch let error as TokenError {
            throw error
        } catch {
            throw .unreadable(source: source, reason: Redactor.redactText(TokenProvider.describe(error)))
        }
        let document = try TokenDocument.parse(data)
        for entry in document.tokens { TokenProvider.registerSecret(entry.token) }
        let entry = try document.token(bucket: bucket)
        state.withLock {
            $0.current = entry.token
            $0.loads += 1
        }
        return entry.token
    }

    /// Registers a token in every form it may take on the wire (raw, query-encoded, without its scheme).
    public static func registerSecret(_ token: String) {
        Redactor.register(secret: token)
        if let encoded = token.addingPercentEncoding(withAllowedCharacters: URIReference.unreserved) { Redactor.register(secret: encoded) }
        if let space = token.firstIndex(of: " ") { Redactor.register(secret: String(token[token.index(after: space)...])) }
    }

    static func describe(_ error: any Error) -> String {
        let ns = error as NSError
        if ns.domain == NSCocoaErrorDomain, ns.code == NSFileReadNoSuchFileError || ns.code == 260 { return "no such file" }
        if ns.domain == NSCocoaErrorDomain, ns.code == NSFileReadNoPermissionError || ns.code == 257 { return "permission denied" }
        return "\(error)"
    }
}
