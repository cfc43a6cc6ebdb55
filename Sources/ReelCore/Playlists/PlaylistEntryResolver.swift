import Foundation
import Synchronization

/// Turns an entry's location as written in a playlist into a URI: relative to the playlist's own
/// location, file:// URIs normalised, and the rule that a playlist fetched over the network may
/// not point at local files.
enum PlaylistEntryResolver {
    /// Schemes a network playlist may point at.
    static let networkSchemes: Set<String> = ["http", "https", "rtsp", "rtsps", "rtmp", "rtmps", "mms", "mmsh", "srt", "rtp", "udp"]

    enum Failure: Error, Equatable {
        case message(String)
    }

    /// - Parameters:
    ///   - raw: the entry as written.
    ///   - base: the playlist's own location (file:// or http(s)://).
    ///   - isURIReference: true for XSPF `<location>` (a URI reference: percent-encoding is
    ///     decoded for local paths); false for M3U/PLS paths, which are literal file names.
    static func resolve(_ raw: String, base: URL, isURIReference: Bool) -> Result<String, Failure> {
        let entry = raw.trimmingPlaylistSpaces()
        guard !entry.isEmpty else { return .failure(.message(tr("an empty location"))) }
        let remote = base.scheme.map { networkSchemes.contains($0.lowercased()) } ?? false
        let resolved: String
        if MediaLocator.hasScheme(entry) {
            let scheme = String(entry[..<entry.firstIndex(of: ":")!]).lowercased()
            if scheme == "file" {
                guard let path = filePath(fromURI: entry) else {
                    return .failure(.message(String(format: tr("“%@” is not a valid file URI"), "\(Redactor.redactURL(entry))")))
                }
                resolved = URL(fileURLWithPath: path).standardizedFileURL.absoluteString
            } else {
                guard let url = URL(string: entry) ?? URL(string: encodeLoosely(entry)) else {
                    return .failure(.message(String(format: tr("“%@” is not a valid URI"), "\(Redactor.redactURL(entry))")))
                }
                resolved = url.absoluteString
            }
        } else if remote {
            let reference = URL(string: entry) != nil && !entry.contains(" ") ? entry : encodeLoosely(entry.replacingOccurrences(of: "\\", with: "/"))
            guard let url = URL(string: reference, relativeTo: base)?.absoluteURL else {
                return .failure(.message(String(format: tr("“%@” is not a valid location"), "\(Redactor.redactText(entry))")))
            }
            resolved = url.absoluteString
        } else {
            var path = entry
            if isURIReference {
                // A relative URI reference: a query or fragment is not part of a file name.
                if let cut = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = String(path[..<cut]) }
                path = path.removingPercentEncoding ?? path
            }
            // Windows-style paths from legacy players.
            if path.contains("\\") && !path.contains("/") { path = path.replacingOccurrences(of: "\\", with: "/") }
            guard !path.isEmpty else { return .failure(.message(tr("an empty location"))) }
            let url: URL
            if path.hasPrefix("/") {
                url = URL(fileURLWithPath: path)
            } else {
                url = URL(fileURLWithPath: path, relativeTo: directory(of: base))
            }
            // Standardising (`.` and `..` away) only when there is something to take away: it
            // builds a new URL, a cost in a list of 100,000 entries (issue 51).
            resolved = needsStandardizing(path) ? url.standardizedFileURL.absoluteString : url.absoluteURL.absoluteString
        }
        if remote {
            let scheme = resolved.prefix { $0 != ":" }.lowercased()
            if !networkSchemes.contains(scheme) {
                return .failure(.message(String(format: tr("a playlist fetched over the network may not point at local files (“%@”); entry dropped"), "\(Redactor.redactURL(resolved))")))
            }
        }
        return .success(resolved)
    }

    /// The folder of the playlist `base` (the last one asked is remembered: every entry of a
    /// playlist asks for the same).
    static func directory(of base: URL) -> URL {
        if let known = lastDirectory.withLock({ $0 }), known.base == base { return known.directory }
        let directory = base.deletingLastPathComponent()
        lastDirectory.withLock { $0 = (base, directory) }
        return directory
    }
    private static let lastDirectory = Mutex<(base: URL, directory: URL)?>(nil)

    /// Whether a path has `.` or `..` components or doubled slashes to take away.
    static func needsStandardizing(_ path: String) -> Bool {
        path.hasPrefix("./") || path.hasPrefix("../") || path == "." || path == ".." || path.contains("/./") || path.contains("/../")
            || path.hasSuffix("/.") || path.hasSuffix("/..") || path.contains("//")
    }

    /// The path of a file URI (`file:///a%20b`, `file://localhost/a`, `file:/a`), decoded; nil
    /// when the URI names another host or has no path.
    static func filePath(fromURI uri: String) -> String? {
        let url = URL(string: uri) ?? URL(string: encodeLoosely(uri))
        guard let url, url.scheme?.lowercased() == "file" else { return nil }
        if let host = url.host, !host.isEmpty, host.lowercased() != "localhost" { return nil }
        let path = url.path
        return path.isEmpty ? nil : path
    }

    /// Percent-encodes what cannot appear in a URI (spaces, non-ASCII) and keeps the rest.
    static func encodeLoosely(_ text: String) -> String {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.insert(charactersIn: "#%")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
