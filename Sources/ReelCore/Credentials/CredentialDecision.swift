import Foundation

/// What one item gets from the credential rule: see `CredentialPolicy.decide`.
public struct CredentialDecision: Sendable, Equatable {
    /// The session's headers and token go to this item (its origin and `allowedHosts`).
    public var sessionCredentials = false
    /// The entry's own headers (its origin, and `allowedHosts` when the session's go too).
    public var headers: [HeaderField] = []
    /// Hosts besides the item's origin that receive its credentials: the session's `--header-host`
    /// hosts, when the session's credentials apply; otherwise none.
    public var allowedHosts: [String] = []
    /// The token bucket the entry asked for (only with the session's credentials).
    public var bucket: String?
    public var placement: TokenPlacement?
    public var finished = false
    public var endsAt: Date?
    /// What the entry asked for and did not get (option names, values never), for a diagnostic.
    public var refused: [String] = []

    public init() {}

    /// Whether the item needs the gateway for what was decided (credentials or a closed playlist).
    public var needsGateway: Bool { sessionCredentials || !headers.isEmpty || finished || endsAt != nil }
}
