import Foundation
import Synchronization

/// What a resource is by its first bytes, whatever its name or Content-Type says: a DASH MPD, an
/// HLS playlist or a web page. Reel routes and bounds manifests by this (a hostile MPD at
/// `/manifest?format=mpd` or in a file named `movie.mp4` must still go through the gateway's
/// bounds, never straight to dashdemux2 or GstDiscoverer) and refuses a web page as media
/// (GStreamer 1.22 types HTML as SAMI subtitles and "plays" it for ever). Pure; table-tested.
public enum SniffedContent: Int, Sendable, Codable, CaseIterable {
    case dashManifest = 1
    case hlsPlaylist = 2
    case webPage = 3

    /// As events and reports name it.
    public var name: String {
        switch self {
        case .dashManifest: "dash-manifest"
        case .hlsPlaylist: "hls-playlist"
        case .webPage: "web-page"
        }
    }

    public var isManifest: Bool { self != .webPage }
}

public enum ContentSniff {
    /// How many bytes of a resource's head are looked at.
    public static let headBytes = 4096

    /// What the bytes (a resource's head) are; nil for anything else (media, other text).
    public static func kind(of bytes: some Collection<UInt8>) -> SniffedContent? {
        var head = Array(bytes.prefix(headBytes))[...]
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { head = head.dropFirst(3) }
        head = head.drop(while: isSpace)
        if head.starts(with: Array("#EXTM3U".utf8)) {
            // An HLS playlist has EXT-X- tags; a plain M3U (Reel's own playlists) has none.
            return contains(head, Array("#EXT-X-".utf8)) ? .hlsPlaylist : nil
        }
        guard head.first == UInt8(ascii: "<"), let element = firstElement(head) else { return nil }
        switch element {
        case .name(let name):
            let local = name.split(separator: ":").last.map(String.init) ?? name
            if local == "MPD" { return .dashManifest }
            return htmlElements.contains(name.lowercased()) ? .webPage : nil
        case .htmlDoctype:
            return .webPage
        }
    }

    /// What a local file is by its first 4 KiB; nil when it cannot be read or is anything else.
    /// Only a regular file is opened (a FIFO would block the open, a device never end).
    public static func kind(ofFile path: String) -> SniffedContent? {
        guard LocalFileFacts(path: path).kind == .regular, let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: headBytes) else { return nil }
        return kind(of: head)
    }

    /// The first elements of an HTML page (or of a fragment a server sends as one).
    static let htmlElements: Set<String> = ["html", "head", "body", "meta", "title", "script", "link", "style"]

    private enum FirstElement { case name(String), htmlDoctype }

    /// The first element's name after the prolog (XML declaration, processing instructions,
    /// comments, a DOCTYPE); `htmlDoctype` for `<!DOCTYPE html`; nil when the text ends first.
    private static func firstElement(_ bytes: ArraySlice<UInt8>) -> FirstElement? {
        var rest = bytes
        while true {
            rest = rest.drop(while: isSpace)
            guard rest.first == UInt8(ascii: "<"), rest.count >= 2 else { return nil }
            let next = rest[rest.index(after: rest.startIndex)]
            if next == UInt8(ascii: "?") {
                guard let end = after(rest, Array("?>".utf8)) else { return nil }
                rest = rest[end...]
            } else if next == UInt8(ascii: "!") {
                if rest.starts(with: Array("<!--".utf8)) {
                    guard let end = after(rest, Array("-->".utf8)) else { return nil }
                    rest = rest[end...]
                } else {
                    let doctype = String(decoding: rest.prefix(14), as: UTF8.self).lowercased()
                    if doctype.hasPrefix("<!doctype html") { return .htmlDoctype }
                    guard let end = after(rest, [UInt8(ascii: ">")]) else { return nil }
                    rest = rest[end...]
                }
            } else {
                let name = rest.dropFirst().prefix { isNameByte($0) || $0 == UInt8(ascii: ":") }
                let end = rest.index(rest.startIndex, offsetBy: 1 + name.count)
                // The name must be whole: a space, '>' or '/' after it.
                guard end < rest.endIndex, isSpace(rest[end]) || rest[end] == UInt8(ascii: ">") || rest[end] == UInt8(ascii: "/"),
                      !name.isEmpty else { return nil }
                return .name(String(decoding: name, as: UTF8.self))
            }
        }
    }

    private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0D || b == 0x0A }

    private static func isNameByte(_ b: UInt8) -> Bool {
        (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39) || b == 0x5F || b == 0x2D || b == 0x2E || b >= 0x80
    }

    /// The index just after the first `needle` in `bytes`, nil when there is none.
    private static func after(_ bytes: ArraySlice<UInt8>, _ needle: [UInt8]) -> ArraySlice<UInt8>.Index? {
        guard bytes.count >= needle.count else { return nil }
        var i = bytes.startIndex
        while i + needle.count <= bytes.endIndex {
            if bytes[i..<(i + needle.count)].elementsEqual(needle) { return i + needle.count }
            i += 1
        }
        return nil
    }

    private static func contains(_ bytes: ArraySlice<UInt8>, _ needle: [UInt8]) -> Bool { after(bytes, needle) != nil }
}

/// The loopback gateways running in this process (their `http://127.0.0.1:PORT/KEY/` prefixes):
/// what comes from one has been through its bounds (`DASHNumber`, the playlist limits), so the
/// engine lets its manifests through to the demuxers, and nothing else's.
public enum GatewayAddresses {
    private static let prefixes = Mutex<Set<String>>([])

    public static func add(_ prefix: String) { _ = prefixes.withLock { $0.insert(prefix) } }
    public static func remove(_ prefix: String) { _ = prefixes.withLock { $0.remove(prefix) } }

    /// Whether `location` (a URL) is a gateway's.
    public static func contains(_ location: String) -> Bool {
        prefixes.withLock { set in set.contains { location.hasPrefix($0) } }
    }
}
