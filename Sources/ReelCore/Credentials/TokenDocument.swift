import Foundation

/// The token file / token endpoint format:
///
///     {
///       "tokens": [
///         { "bucket": "sports", "token": "Bearer eyJhbGciOi…", "expires": "2026-11-21T20:00:00Z" },
///         { "bucket": "news",   "token": "st=1700000000~exp=…~hmac=…" }
///       ]
///     }
///
/// - `bucket` (string, required): the name items ask for (`--bucket sports`).
/// - `token` (string, required): sent verbatim as the `Authorization` header value (include a
///   scheme such as `Bearer ` if the server wants one) and/or as the `Authorization` query value.
/// - `expires` (ISO 8601 date-time, optional): after it, the entry is not used.
///
/// Unknown keys are ignored. The same JSON is what a token endpoint (`--token-url`) returns.
public struct TokenDocument: Sendable, Equatable, Codable {
    public struct Entry: Sendable, Equatable, Codable {
        public var bucket: String
        public var token: String
        public var expires: Date?
        public init(bucket: String, token: String, expires: Date? = nil) {
            self.bucket = bucket
            self.token = token
            self.expires = expires
        }

        enum CodingKeys: String, CodingKey { case bucket, token, expires }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            bucket = try c.decode(String.self, forKey: .bucket)
            token = try c.decode(String.self, forKey: .token)
            if let text = try c.decodeIfPresent(String.self, forKey: .expires) {
                guard let date = TokenDocument.parseDate(text) else {
                    throw DecodingError.dataCorruptedError(forKey: .expires, in: c, debugDescription: "'expires' is not an ISO 8601 date-time")
                }
                expires = date
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(bucket, forKey: .bucket)
            try c.encode(token, forKey: .token)
            if let expires { try c.encode(ISO8601DateFormatter().string(from: expires), forKey: .expires) }
        }
    }

    public var tokens: [Entry]
    public init(tokens: [Entry]) { self.tokens = tokens }

    /// Parses the JSON; the error says what is wrong without quoting any token.
    public static func parse(_ data: Data) throws(TokenError) -> TokenDocument {
        do {
            return try JSONDecoder().decode(TokenDocument.self, from: data)
        } catch let error as DecodingError {
            throw .invalidDocument(TokenDocument.explain(error))
        } catch {
            throw .invalidDocument("not JSON")
        }
    }

    /// The entry for `bucket` at `now`: not expired, latest expiry first (no expiry counts as
    /// latest). With no bucket, the document must hold exactly one bucket.
    public func token(bucket: String?, now: Date = Date()) throws(TokenError) -> Entry {
        let candidates: [Entry]
        if let bucket {
            candidates = tokens.filter { $0.bucket == bucket }
            guard !candidates.isEmpty else { throw .noToken(bucket: bucket) }
        } else {
            let buckets = Set(tokens.map(\.bucket))
            guard buckets.count == 1 else { throw .bucketRequired(available: buckets.sorted()) }
            candidates = tokens
        }
        let valid = candidates.filter { ($0.expires ?? .distantFuture) > now }
        guard let best = valid.max(by: { ($0.expires ?? .distantFuture) < ($1.expires ?? .distantFuture) }) else {
            throw .expired(bucket: candidates[0].bucket)
        }
        return best
    }

    static func parseDate(_ text: String) -> Date? {
        let plain = ISO8601DateFormatter()
        if let d = plain.date(from: text) { return d }
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return fractional.date(from: text)
    }

    private static func explain(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        }
        switch error {
        case .keyNotFound(let key, let ctx): return "missing '\(key.stringValue)' at \(path(ctx.codingPath).isEmpty ? "top level" : path(ctx.codingPath))"
        case .typeMismatch(_, let ctx), .valueNotFound(_, let ctx): return "wrong type at \(path(ctx.codingPath))"
        case .dataCorrupted(let ctx): return ctx.codingPath.isEmpty ? "not JSON" : "\(ctx.debugDescription) at \(path(ctx.codingPath))"
        @unknown default: return "unreadable"
        }
    }
}
