/// Per-entry options in playlist files, stored in `QueueItem.options` (name → values, in file order).
///
/// ## M3U / M3U8
/// A `#EXTREEL:name=value` line applies to the next entry (URI or path line), together with any
/// others before it; the name is everything up to the first `=` (trimmed, lower-cased), the value
/// the rest (trimmed on the left only when it starts with spaces after `=`). Examples:
///
///     #EXTREEL:header=Authorization: Bearer abc123
///     #EXTREEL:bucket=sports
///     #EXTREEL:token-placement=query
///     #EXTINF:12,Match highlights
///     https://cdn.example/sports/master.m3u8
///
/// VLC's `#EXTVLCOPT:` lines are understood for the HTTP ones: `http-user-agent=X` becomes
/// `header=User-Agent: X`, `http-referrer=X` becomes `header=Referer: X`, `http-header=N: V`
/// becomes `header=N: V`; other VLC options are ignored.
///
/// ## XSPF
/// Inside a `<track>`, an extension element for Reel's application URI holds `option` elements
/// (any namespace prefix); the name is the `name` attribute, the value the element's text:
///
///     <extension application="https://reel.invalid/ns">
///       <reel:option name="header">Authorization: Bearer abc123</reel:option>
///       <reel:option name="bucket">sports</reel:option>
///     </extension>
///
/// VLC's `<extension application="http://www.videolan.org/vlc/playlist/0">` with
/// `<vlc:option>http-user-agent=X</vlc:option>` is mapped as for `#EXTVLCOPT`.
///
/// ## Known names (consumed by the gateway lane)
/// - `header`: `Name: value`, an HTTP request header for the entry (repeatable).
/// - `bucket`: a token provider bucket; `token-placement`: `header` or `query`.
/// - `live-mode`, `program-start`, `program-end`, `start-offset`, `timeshift-url`: the live
///   options (`LiveProgram`); `quality` (`QualityChoice`).
/// Unknown names are kept as they are.
public enum PlaylistOptions {
    public static let header = "header"
    public static let bucket = "bucket"
    public static let tokenPlacement = "token-placement"

    /// The XSPF extension application URI for Reel's options.
    public static let xspfApplication = "https://reel.invalid/ns"
    /// VLC's XSPF extension application URI.
    public static let vlcApplication = "http://www.videolan.org/vlc/playlist/0"

    /// Splits `name=value`; nil when there is no `=` or the name is empty or has spaces.
    public static func parse(_ text: String) -> (name: String, value: String)? {
        guard let eq = text.firstIndex(of: "=") else { return nil }
        let name = text[..<eq].trimmingPlaylistSpaces().lowercased()
        guard !name.isEmpty, !name.contains(where: { $0 == " " || $0 == "\t" }) else { return nil }
        var value = Substring(text[text.index(after: eq)...])
        while value.first == " " || value.first == "\t" { value = value.dropFirst() }
        while value.last == " " || value.last == "\t" { value = value.dropLast() }
        return (name, String(value))
    }

    /// Maps a VLC option (`http-user-agent=X`) to a Reel option, or nil when Reel has no use for it.
    public static func fromVLC(_ text: String) -> (name: String, value: String)? {
        guard let (name, value) = parse(text), !value.isEmpty else { return nil }
        switch name {
        case "http-user-agent": return (header, "User-Agent: \(value)")
        case "http-referrer", "http-referer": return (header, "Referer: \(value)")
        case "http-header": return splitHeader(value) == nil ? nil : (header, value)
        default: return nil
        }
    }

    /// `Name: value` → (Name, value); nil when there is no colon or the name is not a token.
    public static func splitHeader(_ text: String) -> (String, String)? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let name = text[..<colon].trimmingPlaylistSpaces()
        let value = text[text.index(after: colon)...].trimmingPlaylistSpaces()
        let token = name.unicodeScalars.allSatisfy { $0.isASCII && $0.value > 32 && $0.value < 127 && !"()<>@,;:\\\"/[]?={}".unicodeScalars.contains($0) }
        guard !name.isEmpty, token else { return nil }
        return (name, value)
    }

    /// Whether an option's value must be kept out of logs (headers with credentials, tokens).
    public static func isSecret(name: String, value: String) -> Bool {
        if name == header, let (h, _) = splitHeader(value) { return Redactor.isSecretHeader(h) }
        return name.contains("token") && name != tokenPlacement || name.contains("secret") || name.contains("password")
    }
}
