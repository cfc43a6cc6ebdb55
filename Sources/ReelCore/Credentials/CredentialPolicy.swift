import Foundation

/// The one rule for who receives credentials, whichever way an item arrives (command line,
/// playlist, control socket, MPRIS, window). See docs/PROTECTED-STREAMS.md, "Threat model".
///
/// - The session's credentials (`--header`, token) go to an item only when it came from the command
///   line (an input, or an entry of a playlist given there) **and** its origin is one the grant
///   covers: the origin of a command-line input, or a `--header-host` host. Never to an item a
///   socket client, a D-Bus peer or a drop added, and never to a playlist entry elsewhere.
/// - A playlist entry's own `header` options go to that entry's origin only. An entry cannot widen
///   where credentials go (`header-host`) beyond the grant, and cannot pick a token `bucket`
///   unless the session's credentials apply to it anyway.
/// - Placement, `finished` and `ends-at` are not credentials and are always honoured.
public enum CredentialPolicy {
    public static func decide(uri: String, arrival: ItemArrival, entry: ProtectedEntryOptions, grant: CredentialGrant) -> CredentialDecision {
        var d = CredentialDecision()
        d.granted.placement = entry.placement
        d.granted.finished = entry.finished
        d.granted.endsAt = entry.endsAt
        guard let origin = Origin(uri) else {
            // Local items: nothing is sent anywhere with them.
            if !entry.headers.isEmpty { d.refused.append("header") }
            if !entry.allowedHosts.isEmpty { d.refused.append("header-host") }
            if entry.bucket != nil { d.refused.append("bucket") }
            return d
        }
        d.granted.headers = entry.headers
        // A command-line input is bound by being given with the credentials (its origin is in the
        // grant when the grant is made from the command line); a playlist entry only by its origin.
        d.sessionCredentials = grant.hasCredentials && (arrival == .commandLine || (arrival == .playlist && grant.covers(origin)))
        if d.sessionCredentials {
            d.granted.allowedHosts = grant.hosts
            d.granted.bucket = entry.bucket
        } else if entry.bucket != nil {
            d.refused.append("bucket")
        }
        // An entry's header-host is honoured only where the grant already lets credentials go.
        let beyond = entry.allowedHosts.filter { host in !(d.sessionCredentials && grant.hosts.contains { HeaderScope.normalise($0) == HeaderScope.normalise(host) }) }
        if !beyond.isEmpty { d.refused.append("header-host") }
        return d
    }
}
