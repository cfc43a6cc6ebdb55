import Foundation

/// The key under which an item's resume position is kept: the item as a user would name it, with
/// nothing secret in it. A local file is its absolute `file://` URI. A network URL keeps its
/// scheme, host, port, path and the query parameters that identify it; user info, the fragment,
/// parameters named like credentials, long values (signatures, expiry stamps, session ids in
/// whatever name a CDN gives them) and registered secrets are dropped — so a signed URL whose
/// token rotates still finds its place, and the state file never holds the token.
public enum ResumeKey {
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
            guard !Redactor.secretParameters.contains(item.name.lowercased()) else { return false }
            guard let value = item.value else { return true }
            return value.count <= longestKeptValue && !Redactor.looksLikeSignature(value) && Redactor.redactText(value) == value
        }
        c.percentEncodedQueryItems = kept.isEmpty ? nil : kept.sorted { $0.name < $1.name }
        guard let key = c.string, Redactor.redactText(key) == key else { return nil }
        return key
    }
}
