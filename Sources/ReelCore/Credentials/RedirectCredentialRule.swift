import Foundation

/// Whether credentials (the item's headers, its token header and query token) may follow a
/// redirect. They follow when the target is in the item's `HeaderScope` (its own origin — same
/// scheme, host and port — or an allowed host); never from https down to http. When they do not
/// follow, the redirect is still followed, without them.
public enum RedirectCredentialRule {
    public static func keepsCredentials(from: URL, to: URL, scope: HeaderScope) -> Bool {
        guard let source = Origin(from), let target = Origin(to) else { return false }
        if source.scheme == "https" && target.scheme != "https" { return false }
        return scope.allows(to)
    }

    /// The target of a redirect's `Location` (relative to the request URL), when it is http(s).
    public static func target(location: String, requestURL: URL) -> URL? {
        guard let url = URIReference.resolve(location, against: requestURL),
              let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return nil }
        return url
    }

    public static func isRedirect(_ status: Int) -> Bool { [301, 302, 303, 307, 308].contains(status) }

    /// The most redirects followed for one request.
    public static let maximumRedirects = 10
}
