import Foundation
import ReelCore
import ReelGateway

/// What protected network items need, resolved from the command line (or built through the API):
/// headers, hosts allowed to receive them, the token source, placement, and catchup.
struct ProtectedStreamSettings: Sendable {
    var headers: [HeaderField] = []
    var allowedHosts: [String] = []
    var tokenFile: String?
    var tokenURL: URL?
    var bucket: String?
    var placement: TokenPlacement = .header
    var finished = false
    var httpLogPath: String?
    /// PEM certificates the gateway trusts for https upstreams besides the system's.
    var caFile: String?
    /// Origins of the command line's network inputs: the session's credentials are bound to
    /// them (and to `allowedHosts`), never to items that arrive otherwise.
    var origins: Set<Origin> = []
    /// `--record DIR` (with `--record-max` bytes), and `--replay DIR` as read.
    var record: String?
    /// The command line's inputs (a recording names them).
    var inputs: [String] = []
    var recordMax: Int?
    var replay: ReplayOrigin?

    /// Whether there are credentials (headers or a token source) to guard.
    var hasCredentials: Bool { !headers.isEmpty || tokenFile != nil || tokenURL != nil }

    /// What the credentials are bound to (see `CredentialPolicy`).
    var grant: CredentialGrant { CredentialGrant(hasCredentials: hasCredentials, origins: origins, hosts: allowedHosts) }

    /// Whether network items go through the gateway at all.
    var isActive: Bool { !headers.isEmpty || tokenFile != nil || tokenURL != nil || finished || httpLogPath != nil || caFile != nil
        || record != nil || replay != nil }
}
