/// What the session's credentials (`--header`, `--token-file`/`--token-url`) are bound to: the
/// origins of the network inputs given with them on the command line, and the `--header-host`
/// hosts. Nothing else ever receives them (see `CredentialPolicy`).
public struct CredentialGrant: Sendable, Equatable {
    /// Whether the session has credentials at all.
    public var hasCredentials: Bool
    /// Origins of the command line's network inputs.
    public var origins: Set<Origin>
    /// `--header-host` entries (`host`, `*.domain`, `host:port`).
    public var hosts: [String]

    public init(hasCredentials: Bool = false, origins: Set<Origin> = [], hosts: [String] = []) {
        self.hasCredentials = hasCredentials
        self.origins = origins
        self.hosts = hosts
    }

    /// The grant for credentials given with these command-line inputs (paths or URIs).
    public init(hasCredentials: Bool, inputs: [String], hosts: [String]) {
        self.init(hasCredentials: hasCredentials, origins: Set(inputs.compactMap { Origin(MediaLocator.uri(for: $0)) }), hosts: hosts)
    }

    /// Whether credentials bound by this grant may go to `origin` at all.
    public func covers(_ origin: Origin) -> Bool { origins.contains(origin) || HeaderScope.matches(origin, hosts) }
}
