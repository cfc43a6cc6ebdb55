import Foundation

/// Which items go to the desktop's recent files (GtkRecentManager, read by other programs): a
/// local file always; a network URL only when it carries no credential — no header or token goes
/// with it, and nothing in the URL itself is secret or signature-like (`ResumeKey` would drop
/// nothing from it) — because the recent list is a plain file every program of the user reads.
public enum RecentRule {
    /// The URI to add, or nil to leave the item out.
    public static func uri(for itemURI: String, hasCredentials: Bool) -> String? {
        let uri = MediaLocator.uri(for: itemURI)
        if MediaLocator.localPath(of: uri) != nil { return uri }
        guard !hasCredentials, MediaLocator.isNetwork(uri), let key = ResumeKey.key(for: uri),
              let original = URLComponents(string: uri), original.user == nil, original.password == nil,
              let kept = URLComponents(string: key),
              (kept.percentEncodedQueryItems ?? []).count == (original.percentEncodedQueryItems ?? []).count else { return nil }
        return uri
    }
}
