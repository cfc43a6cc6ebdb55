import Foundation

/// Turns what a user typed (a path, a file:// URI, an http(s) URL) into a URI, and back.
public enum MediaLocator {
    /// A URI for the input: absolute URIs pass through, paths become file:// URIs resolved
    /// against `base` (the current directory by default).
    public static func uri(for input: String, relativeTo base: URL? = nil) -> String {
        if hasScheme(input) { return input }
        let expanded = (input as NSString).expandingTildeInPath
        let url: URL
        if expanded.hasPrefix("/") {
            url = URL(fileURLWithPath: expanded)
        } else {
            let dir = base ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
            url = URL(fileURLWithPath: expanded, relativeTo: dir)
        }
        return url.standardizedFileURL.absoluteString
    }

    /// True for `scheme:...` inputs with a plausible scheme (two or more letters, so that a
    /// Windows-like `C:` is not one).
    public static func hasScheme(_ input: String) -> Bool {
        guard let colon = input.firstIndex(of: ":") else { return false }
        let scheme = input[..<colon]
        guard scheme.count >= 2, let first = scheme.first, first.isLetter else { return false }
        return scheme.allSatisfy { $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." }
    }

    /// The local path of a file:// URI, or nil.
    public static func localPath(of uri: String) -> String? {
        guard uri.lowercased().hasPrefix("file:"), let url = URL(string: uri) else { return nil }
        return url.path
    }

    public static func isNetwork(_ uri: String) -> Bool {
        let lower = uri.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    /// A short name for an item: the file name without percent-encoding, or the URL's last path
    /// component, or the host.
    public static func displayName(of uri: String) -> String {
        if let path = localPath(of: uri) { return lastPathComponent(path) }
        if let url = URL(string: uri) {
            let last = url.lastPathComponent
            if !last.isEmpty && last != "/" { return last.removingPercentEncoding ?? last }
            if let host = url.host { return host }
        }
        return Redactor.redactURL(uri)
    }

    /// The last non-empty component of a slash-separated path ("/" for the root). Plain Swift:
    /// Foundation's `NSString.lastPathComponent` traps on some strings on Linux (found by fuzzing).
    public static func lastPathComponent(_ path: String) -> String {
        if let last = path.split(separator: "/", omittingEmptySubsequences: true).last { return String(last) }
        return path.isEmpty ? "" : "/"
    }
}
