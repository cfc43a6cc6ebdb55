import Foundation

/// RFC 3986 helpers on URI references as playlists write them: resolution against a base
/// (tolerating spaces and other characters that need escaping), the scheme test, and query
/// parameter edits that keep every other character as written.
public enum URIReference {
    /// Characters allowed unescaped anywhere in a URI reference (unreserved + reserved + `%`).
    static let legal: CharacterSet = {
        var set = CharacterSet()
        set.insert(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~:/?#[]@!$&'()*+,;=%")
        return set
    }()

    /// RFC 3986 unreserved characters: what a query value may keep unescaped.
    public static let unreserved: CharacterSet = {
        var set = CharacterSet()
        set.insert(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        return set
    }()

    /// The reference's scheme, lower-cased, when it has one (`http`, `skd`, `data`…).
    public static func scheme(of reference: String) -> String? {
        guard MediaLocator.hasScheme(reference), let colon = reference.firstIndex(of: ":") else { return nil }
        return reference[..<colon].lowercased()
    }

    /// True for references the gateway may fetch: http(s), or relative (resolved against the
    /// playlist's base); `file` too when `allowingFiles` (a local playlist's own files).
    public static func isFetchable(_ reference: String, allowingFiles: Bool = false) -> Bool {
        guard let scheme = scheme(of: reference) else { return true }
        return scheme == "http" || scheme == "https" || (allowingFiles && scheme == "file")
    }

    /// `reference` escaped where it must be (spaces, non-ASCII) so that `URL` accepts it.
    public static func escaped(_ reference: String) -> String {
        reference.addingPercentEncoding(withAllowedCharacters: legal) ?? reference
    }

    /// The absolute URL of `reference` resolved against `base` (RFC 3986 section 5).
    public static func resolve(_ reference: String, against base: URL?) -> URL? {
        let text = escaped(reference)
        if let base { return URL(string: text, relativeTo: base)?.absoluteURL }
        return URL(string: text)
    }

    /// `reference` with every query parameter called `name` (case-insensitive) removed and one
    /// `name=value` appended (value percent-encoded). The path, the other parameters in their
    /// order and spelling, and the fragment are kept as written.
    public static func settingQueryParameter(_ name: String, to value: String, in reference: String) -> String {
        let (base, query, fragment) = split(reference)
        var kept = removing(name, from: query)
        let encoded = value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? value
        kept.append("\(name)=\(encoded)")
        return base + "?" + kept.joined(separator: "&") + (fragment.map { "#" + $0 } ?? "")
    }

    /// `reference` without any query parameter called `name` (case-insensitive).
    public static func removingQueryParameter(_ name: String, from reference: String) -> String {
        let (base, query, fragment) = split(reference)
        guard let query else { return reference }
        let kept = removing(name, from: query)
        return base + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&")) + (fragment.map { "#" + $0 } ?? "")
    }

    /// The values of the query parameters called `name` (case-insensitive), percent-decoded.
    public static func queryValues(_ name: String, in reference: String) -> [String] {
        guard let query = split(reference).query else { return [] }
        return query.split(separator: "&", omittingEmptySubsequences: true).compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts[0].lowercased() == name.lowercased() else { return nil }
            let raw = parts.count == 2 ? String(parts[1]) : ""
            return raw.removingPercentEncoding ?? raw
        }
    }

    private static func split(_ reference: String) -> (base: String, query: String?, fragment: String?) {
        var rest = Substring(reference)
        var fragment: String?
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        guard let q = rest.firstIndex(of: "?") else { return (String(rest), nil, fragment) }
        return (String(rest[..<q]), String(rest[rest.index(after: q)...]), fragment)
    }

    private static func removing(_ name: String, from query: String?) -> [String] {
        guard let query, !query.isEmpty else { return [] }
        let lower = name.lowercased()
        return query.split(separator: "&", omittingEmptySubsequences: false).map(String.init).filter { pair in
            let key = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? pair
            return (key.removingPercentEncoding ?? key).lowercased() != lower
        }
    }
}
