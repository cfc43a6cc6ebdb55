import Foundation

/// A web origin (RFC 6454): scheme, host and port, the unit credentials are bound to. Two URLs
/// on the same host but another port or scheme are other origins.
public struct Origin: Hashable, Sendable, CustomStringConvertible {
    public var scheme: String
    public var host: String
    public var port: Int

    /// The origin of an http(s) URL; nil for anything else (files, other schemes, no host).
    public init?(_ url: URL) {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty else { return nil }
        self.scheme = scheme
        self.host = HeaderScope.normalise(host)
        self.port = url.port ?? (scheme == "https" ? 443 : 80)
    }

    public init?(_ text: String) {
        guard let url = URL(string: text) else { return nil }
        self.init(url)
    }

    public var description: String { "\(scheme)://\(host):\(port)" }
}
