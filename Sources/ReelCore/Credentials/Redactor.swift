import Foundation
import Synchronization

/// Keeps secrets out of logs, events, error text and reports.
///
/// Redacts: URL user info, values of query parameters whose names look like credentials,
/// values of credential headers, and any secret registered at run time (tokens from a provider,
/// `--header` values) wherever it appears in text.
public enum Redactor {
    public static let mask = "***"

    /// Query parameter names (lower-cased) whose values are secret.
    public static let secretParameters: Set<String> = [
        "authorization", "auth", "token", "access_token", "accesstoken", "id_token", "refresh_token",
        "api_key", "apikey", "key", "sig", "signature", "password", "passwd", "pwd", "secret",
        "session", "sessionid", "hdnts", "hdnea", "policy", "x-amz-signature", "x-amz-credential",
        "x-amz-security-token", "x-goog-signature", "jwt", "bearer",
        // Signed-URL schemes under other names: nginx secure_link (md5, expires), Wowza
        // (wowzatokenhash), generic HMAC and pass parameters, Akamai-style "hash", CloudFront.
        "md5", "hmac", "hash", "wowzatokenhash", "pass", "passphrase",
    ]

    /// Parts of a parameter's name that make its value a credential, whatever surrounds them
    /// (`client-secret`, `api-key`, `x-auth`, `user_password`, `refreshToken`): a list of whole
    /// names alone missed `pw=`, `api-key=`, `client-secret=` and `pin=` (issue 46).
    static let secretNameParts = ["token", "secret", "passw", "passcode", "apikey", "api-key", "api_key", "auth", "signature", "cred", "session", "private", "ticket", "hmac"]
    /// Short names that are credentials on their own.
    static let secretShortNames: Set<String> = ["pw", "pwd", "pin", "otp"]

    /// Whether a query parameter's value is secret by its name.
    public static func isSecretParameter(_ name: String) -> Bool {
        let n = name.lowercased()
        return secretParameters.contains(n) || secretShortNames.contains(n) || secretNameParts.contains { n.contains($0) }
    }

    /// A query value of signature shape, whatever its parameter's name: 16 or more characters
    /// of a hash or an encoding (hex, base64, base64url), with both letters and digits. Such
    /// values are masked: a false positive costs a readable log line, a miss leaks a signed URL.
    public static func looksLikeSignature(_ value: String) -> Bool {
        guard value.count >= 16, value.count <= 4096 else { return false }
        var letters = false, digits = false
        for u in value.unicodeScalars {
            switch u {
            case "a"..."z", "A"..."Z": letters = true
            case "0"..."9": digits = true
            case "-", "_", "+", "/", "=", ".", "~", "%": break
            default: return false
            }
        }
        return letters && digits
    }
    /// Header names (lower-cased) whose values are secret.
    public static let secretHeaders: Set<String> = ["authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "x-auth-token"]

    private static let registered = Mutex(SecretIndex())

    /// Registers a secret (a token, a header value) to be masked wherever it appears.
    /// Very short values are ignored, as masking them would garble ordinary text.
    public static func register(secret: String) {
        guard secret.count >= 6 else { return }
        registered.withLock { $0.insert(secret) }
        // Also the form it takes inside a query string.
        if let encoded = secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics), encoded != secret {
            registered.withLock { $0.insert(encoded) }
        }
    }

    /// The registered secrets, found in a text by one pass over it (issue 28, item 15: each
    /// redaction searched the text once per secret, and 3,000 socket appends with their own
    /// header made `get_property playlist` take 8 s): secrets are indexed by their first six
    /// bytes, and every position of the text looks its six bytes up.
    struct SecretIndex: Sendable {
        private var secrets: Set<String> = []
        private var byPrefix: [UInt64: [[UInt8]]] = [:]

        var isEmpty: Bool { secrets.isEmpty }

        mutating func insert(_ secret: String) {
            guard secrets.insert(secret).inserted else { return }
            let bytes = Array(secret.utf8)
            byPrefix[Self.key(bytes[0..<6]), default: []].append(bytes)
            byPrefix[Self.key(bytes[0..<6])]!.sort { $0.count > $1.count }  // longest first
        }

        static func key(_ six: ArraySlice<UInt8>) -> UInt64 {
            six.reduce(0) { $0 << 8 | UInt64($1) }
        }

        /// `text` with every registered secret replaced by `mask` (the longest at each place).
        func masking(_ text: String) -> String {
            guard !secrets.isEmpty else { return text }
            let bytes = Array(text.utf8)
            guard bytes.count >= 6 else { return text }
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count)
            var i = 0
            var changed = false
            let maskBytes = Array(Redactor.mask.utf8)
            while i < bytes.count {
                if i + 6 <= bytes.count, let candidates = byPrefix[Self.key(bytes[i..<i + 6])],
                   let hit = candidates.first(where: { i + $0.count <= bytes.count && bytes[i..<i + $0.count].elementsEqual($0) }) {
                    out += maskBytes
                    i += hit.count
                    changed = true
                } else {
                    out.append(bytes[i])
                    i += 1
                }
            }
            return changed ? String(decoding: out, as: UTF8.self) : text
        }
    }

    public static func isSecretHeader(_ name: String) -> Bool { secretHeaders.contains(name.lowercased()) }

    /// `Name: value` with the value masked when the header is a credential or a registered secret.
    public static func redactHeader(name: String, value: String) -> String {
        isSecretHeader(name) ? "\(name): \(mask)" : "\(name): \(redactText(value))"
    }

    /// A URL with user info and secret query values masked. Not-a-URL text goes through `redactText`.
    public static func redactURL(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.scheme != nil else { return redactText(url) }
        if components.user != nil { components.user = mask }
        if components.password != nil { components.password = nil }
        if let items = components.percentEncodedQueryItems {
            components.percentEncodedQueryItems = items.map { item in
                guard let value = item.value else { return item }
                return isSecretParameter(item.name) || looksLikeSignature(value) ? URLQueryItem(name: item.name, value: mask) : item
            }
        }
        return redactText(components.string ?? url)
    }

    /// Masks registered secrets, `Bearer …`/`Basic …` credentials and secret `name=value` pairs in free text.
    public static func redactText(_ text: String) -> String {
        var out = registered.withLock { $0.masking(text) }
        out = replace(in: out, pattern: #"(?i)\b(bearer|basic)\s+[A-Za-z0-9\-._~+/=]+"#, template: "$1 \(mask)")
        out = replace(in: out, pattern: secretPairPattern, template: "$1\(mask)")
        // Query values of signature shape under any name (see `looksLikeSignature`).
        out = replace(in: out, pattern: #"([?&;][A-Za-z0-9_.\-]{1,64}=)(?=[A-Za-z0-9_\-+/=.~%]{16,}(?:[&#\s"']|$))(?=[^&#\s"']*[0-9])(?=[^&#\s"']*[A-Za-z])[A-Za-z0-9_\-+/=.~%]+"#,
                      template: "$1\(mask)")
        out = replace(in: out, pattern: "(?i)\\b((?:\(secretHeaders.map { NSRegularExpression.escapedPattern(for: $0) }.joined(separator: "|"))):\\s*)[^\\r\\n,}\"]+", template: "$1\(mask)")
        out = replace(in: out, pattern: #"(?i)(https?://)[^/\s:@]+(:[^/\s@]*)?@"#, template: "$1\(mask)@")
        return out
    }

    /// `?name=value` / `&name=value` in free text whose name `isSecretParameter` would mask.
    private static let secretPairPattern: String = {
        let names = (secretParameters.union(secretShortNames)).map { NSRegularExpression.escapedPattern(for: $0) }.joined(separator: "|")
        let parts = secretNameParts.map { NSRegularExpression.escapedPattern(for: $0) }.joined(separator: "|")
        return "(?i)([?&;](?:(?:\(names))|[A-Za-z0-9_.\\-]*(?:\(parts))[A-Za-z0-9_.\\-]*)=)[^&#\\s\"']+"
    }()

    private static func replace(in text: String, pattern: String, template: String) -> String {
        guard let re = try? NSRegularExpression(pattern: pattern) else { return text }
        return re.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text), withTemplate: template)
    }
}
