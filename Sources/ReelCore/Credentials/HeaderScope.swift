import Foundation

/// Where an item's headers and tokens may go: the item's own origin (scheme, host and port), and
/// the hosts of an explicit allow-list (`--header-host`: CDNs). Allow-list entries are host names,
/// `*.example.com` (any subdomain, not the apex) or `host:port`; without a port any port of that
/// host is allowed. Nothing is allowed over plain http when the item itself is https. Hosts
/// compare case-insensitively.
public struct HeaderScope: Sendable, Equatable {
    public var origin: Origin?
    public var allowedHosts: [String]

    public init(origin: Origin?, allowedHosts: [String] = []) {
        self.origin = origin
        self.allowedHosts = allowedHosts.map(HeaderScope.normalise)
    }

    /// The scope of an item URL: its origin, plus the allow-list.
    public init(itemURL: URL?, allowedHosts: [String] = []) {
        self.init(origin: itemURL.flatMap(Origin.init), allowedHosts: allowedHosts)
    }

    public func allows(_ url: URL) -> Bool {
        guard let target = Origin(url) else { return false }
        if target == origin { return true }
        if origin?.scheme == "https" && target.scheme != "https" { return false }
        return HeaderScope.matches(target, allowedHosts)
    }

    /// Whether `target` is named by one of the allow-list's entries.
    public static func matches(_ target: Origin, _ entries: [String]) -> Bool {
        entries.contains { entry in
            var host = entry
            if let colon = entry.lastIndex(of: ":"), !entry.hasSuffix("]"), let port = Int(entry[entry.index(after: colon)...]) {
                guard port == target.port else { return false }
                host = normalise(String(entry[..<colon]))
            }
            if host.hasPrefix("*.") { return target.host.hasSuffix(String(host.dropFirst(1))) }
            return host == target.host
        }
    }

    static func normalise(_ host: String) -> String {
        var h = host.lowercased()
        if h.hasPrefix("["), h.hasSuffix("]") { h = String(h.dropFirst().dropLast()) }
        if h.hasSuffix(".") { h.removeLast() }
        return h
    }
}
