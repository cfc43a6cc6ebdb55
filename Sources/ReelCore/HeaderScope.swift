import Foundation

/// Which hosts an item's headers and tokens go to: the item's origin host, plus an explicit
/// allow-list (CDNs). Entries are host names or `*.example.com` (any subdomain, not the apex).
/// Hosts compare case-insensitively; ports do not matter.
public struct HeaderScope: Sendable, Equatable {
    public var originHost: String?
    public var allowedHosts: [String]

    public init(originHost: String?, allowedHosts: [String] = []) {
        self.originHost = originHost.map(HeaderScope.normalise)
        self.allowedHosts = allowedHosts.map(HeaderScope.normalise)
    }

    /// The scope of an item URL: its host, plus the allow-list.
    public init(itemURL: URL?, allowedHosts: [String] = []) {
        self.init(originHost: itemURL?.host, allowedHosts: allowedHosts)
    }

    public func allows(host: String?) -> Bool {
        guard let host else { return false }
        let h = HeaderScope.normalise(host)
        if h == originHost { return true }
        return allowedHosts.contains { entry in
            if entry.hasPrefix("*.") { return h.hasSuffix(String(entry.dropFirst(1))) }
            return entry == h
        }
    }

    public func allows(_ url: URL) -> Bool { allows(host: url.host) }

    static func normalise(_ host: String) -> String {
        var h = host.lowercased()
        if h.hasPrefix("["), h.hasSuffix("]") { h = String(h.dropFirst().dropLast()) }
        if h.hasSuffix(".") { h.removeLast() }
        return h
    }
}
