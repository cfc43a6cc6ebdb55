import Foundation

/// What one item gets from the credential rule: see `CredentialPolicy.decide`.
public struct CredentialDecision: Sendable, Equatable {
    /// The session's headers and token go to this item (its origin and `granted.allowedHosts`).
    public var sessionCredentials = false
    /// The entry's options as the rule lets them stand: its own headers (its origin, and the
    /// allowed hosts when the session's go too); as allowed hosts the session's `--header-host`
    /// hosts when the session's credentials apply, otherwise none; its bucket only with the
    /// session's credentials; placement, `finished` and `ends-at` always.
    public var granted = ProtectedEntryOptions()
    /// What the entry asked for and did not get (option names, values never), for a diagnostic.
    public var refused: [String] = []

    public init() {}

    /// Whether the item needs the gateway for what was decided (credentials or a closed playlist).
    public var needsGateway: Bool { sessionCredentials || !granted.headers.isEmpty || granted.finished || granted.endsAt != nil }
}
