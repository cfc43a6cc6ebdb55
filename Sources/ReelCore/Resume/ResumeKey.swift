import Foundation

/// The key under which an item's resume position is kept: the item as a user would name it, with
/// nothing secret in it. A local file is its absolute `file://` URI. A network URL keeps its
/// scheme, host, port, path and the query parameters that identify it; user info, the fragment,
/// parameters named like credentials, long values (signatures, expiry stamps, session ids in
/// whatever name a CDN gives them) and registered secrets are dropped — so a signed URL whose
/// token rotates still finds its place, and the state file never holds the token.
public enum ResumeKey {
    /// The query parameters that say which content a URL is (and so are kept in resume keys,
    /// recent files and saved playlists' file modes): an allow-list, never a list of secrets.
    public static let identifyingParameters: Set<String> = [
        "v", "id", "vid", "video", "videoid", "channel", "ch", "stream", "episode", "ep", "season", "track", "title", "name",
        "file", "page", "list", "index", "item", "format", "fmt", "quality", "lang", "language", "program", "programme", "show",
    ]

    /// Whether every parameter of `uri`'s query names content (`identifyingParameters`): a URL
    /// with any other may carry a secret, and is treated as one would (owner-only files).
    public static func queryIsIdentifyingOnly(_ uri: String) -> Bool {
        guard let items = URLComponents(string: uri)?.percentEncodedQueryItems else { return true }
        return items.allSatisfy { identifyingParameters.contains($0.name.lowercased()) }
    }

    /// Query values longer than this are taken for signatures or tokens and left out.
    static let longestKeptValue = 24

    /// nil for inputs that have no lasting identity (standard input, data: URIs, the gateway's
    /// own loopback URLs).
    public static func key(for uri: String) -> String? {
        if let path = MediaLocator.localPath(of: uri) {
            return URL(fileURLWithPath: path).standardizedFileURL.absoluteString
        }
        guard var c = URLComponents(string: uri), let scheme = c.scheme?.lowercased(),
              ["http", "https"].contains(scheme), let host = c.host, !host.isEmpty else { return nil }
        c.scheme = scheme
        c.host = host.lowercased()
        c.user = nil
        c.password = nil
        c.fragment = nil
        let kept = (c.percentEncodedQueryItems ?? []).filter { item in
            // Only parameters that name content are kept: any other may be a credential under a
            // name nobody listed (`pw=`, `api-key=`, `client-secret=`, `pin=`: issue 46).
            guard identifyingParameters.contains(item.name.lowercased()) else { return false }
            guard let value = item.value else { return true }
            return value.count <= longestKeptValue && !Redactor.looksLikeSignature(value) && Redactor.redactText(value) == value
        }
        c.percentEncodedQueryItems = kept.isEmpty ? nil : kept.sorted { $0.name < $1.name }
        guard let key = c.string, Redactor.redactText(key) == key else { return nil }
        return key
    }
}
