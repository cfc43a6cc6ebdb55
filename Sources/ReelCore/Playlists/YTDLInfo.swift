import Foundation

/// What `yt-dlp -J PAGE` says a web page holds (its `--dump-single-json` document), as queue
/// items: one video, or a playlist's entries in order. Each item plays the format yt-dlp chose
/// (`url`, the one of `requested_formats` that has both video and audio, or a video-only file
/// with its audio-only file, `audio-url`, joined as one item) with the
/// `http_headers` and `cookies` yt-dlp gives for it as the item's `header` options, which the
/// gateway puts on every request of the stream to the format's own origin and on no other. Its title, duration, chapters and subtitle URLs come with it.
/// Pure: table-tested on yt-dlp's own output.
public enum YTDLInfo {
    /// Why a document gave no item.
    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// Not a JSON object (a crash's output, a truncated run).
        case notJSON
        /// A document with nothing playable in it: what yt-dlp names (its `_type`), for the message.
        case nothingPlayable(String)
        /// A separate video and audio Reel cannot join (HLS or DASH parts, or two origins).
        case separateAudioAndVideo

        public var description: String {
            switch self {
            case .notJSON: "yt-dlp's answer is not the JSON document it should be"
            case .nothingPlayable(let what): "yt-dlp found no video to play on the page (it read a \(what))"
            case .separateAudioAndVideo: "yt-dlp chose a separate video and audio that Reel cannot join (streams, or two hosts): choose a format with both, as --ytdl-format=b does"
            }
        }
    }

    /// One thing to play, as the page's items are queued.
    public struct Entry: Equatable, Sendable {
        public var url: String
        public var title: String?
        public var duration: Double?
        /// `Name: value`, for `url`'s origin only.
        public var headers: [String] = []
        /// (start seconds, title) in order.
        public var chapters: [(Double, String)] = []
        /// (language, URL) of the subtitles yt-dlp chose (`requested_subtitles`, else `subtitles`).
        public var subtitles: [(String, String)] = []
        /// A playlist's entry given as its own page (`--flat-playlist`): looked up when it plays.
        public var isPage = false
        /// The audio of a format pair (video and audio apart): played with the video as one item.
        public var audioURL: String?

        public static func == (a: Entry, b: Entry) -> Bool {
            a.url == b.url && a.isPage == b.isPage && a.audioURL == b.audioURL && a.title == b.title && a.duration == b.duration && a.headers == b.headers
                && a.chapters.map(\.0) == b.chapters.map(\.0) && a.chapters.map(\.1) == b.chapters.map(\.1)
                && a.subtitles.map(\.0) == b.subtitles.map(\.0) && a.subtitles.map(\.1) == b.subtitles.map(\.1)
        }

        /// The queue item's options: `header` (the gateway sends an entry's own headers to its own
        /// origin only: never to another host, whatever yt-dlp says), `chapter`
        /// (`START TITLE`) and `sub-url` (`LANG URL`), and `page`, the page it came from (an item
        /// with one is never looked up again; a flat entry, a page itself, has none).
        public func options(page: String) -> [String: [String]] {
            var options: [String: [String]] = isPage ? [:] : ["page": [page]]
            if !headers.isEmpty { options[PlaylistOptions.header] = headers }
            if let audioURL { options["audio-url"] = [audioURL] }
            if !chapters.isEmpty { options["chapter"] = chapters.map { "\(String(format: "%.3f", $0.0)) \($0.1)" } }
            if !subtitles.isEmpty { options["sub-url"] = subtitles.map { "\($0.0) \($0.1)" } }
            return options
        }
    }

    /// The most entries a playlist gives (a channel's whole history is not a queue).
    public static let maximumEntries = 5000

    /// The entries of a `-J` document.
    public static func entries(_ data: Data) -> Result<[Entry], Failure> {
        guard let object = try? JSONSerialization.jsonObject(with: data), let document = object as? [String: Any] else { return .failure(.notJSON) }
        return entries(document, depth: 0)
    }

    private static func entries(_ document: [String: Any], depth: Int) -> Result<[Entry], Failure> {
        let type = document["_type"] as? String ?? "video"
        if type == "playlist" || type == "multi_video", let list = document["entries"] as? [Any], depth < 3 {
            var found: [Entry] = []
            var separate = false
            for case let entry as [String: Any] in list.prefix(maximumEntries) {
                switch entries(entry, depth: depth + 1) {
                case .success(let e): found += e
                case .failure(.separateAudioAndVideo): separate = true
                case .failure: continue
                }
                if found.count >= maximumEntries { break }
            }
            if found.isEmpty { return .failure(separate ? .separateAudioAndVideo : .nothingPlayable("playlist with no video")) }
            return .success(Array(found.prefix(maximumEntries)))
        }
        if type == "url" || type == "url_transparent", let url = document["url"] as? String, isHTTP(url) {
            // A flat entry (`--flat-playlist`): the page of one video, resolved when it plays.
            return .success([Entry(url: url, title: document["title"] as? String, duration: number(document["duration"]), isPage: true)])
        }
        guard type == "video" else { return .failure(.nothingPlayable(type)) }
        guard let format = chosenFormat(document) ?? pair(document) else {
            if let pair = document["requested_formats"] as? [Any], pair.count > 1 { return .failure(.separateAudioAndVideo) }
            return .failure(.nothingPlayable("page without a format"))
        }
        var entry = Entry(url: format.url, title: document["title"] as? String, duration: number(document["duration"]))
        entry.headers = format.headers
        entry.audioURL = format.audio
        for case let c as [String: Any] in document["chapters"] as? [Any] ?? [] {
            guard let start = number(c["start_time"]) else { continue }
            entry.chapters.append((start, (c["title"] as? String).map(oneLine) ?? ""))
        }
        entry.chapters.sort { $0.0 < $1.0 }
        let subtitles = (document["requested_subtitles"] as? [String: Any]).map { $0.mapValues { [$0] } }
            ?? (document["subtitles"] as? [String: Any])?.mapValues { $0 as? [Any] ?? [] } ?? [:]
        for language in subtitles.keys.sorted() where language != "live_chat" {
            let tracks = (subtitles[language] ?? []).compactMap { $0 as? [String: Any] }
            // A file Reel reads (SRT, WebVTT, ASS), the first yt-dlp lists of those.
            if let track = tracks.first(where: { ["vtt", "srt", "ass", "ssa"].contains(($0["ext"] as? String ?? "").lowercased()) }),
               let url = track["url"] as? String, isHTTP(url) {
                entry.subtitles.append((oneLine(language), url))
            }
        }
        return .success([entry])
    }

    private struct Format { var url: String; var headers: [String]; var audio: String? = nil }

    /// A separate video and audio (`bv+ba`): the video's URL and headers, and the audio's URL,
    /// played together (playbin3's `suburi`); nil unless both are plain HTTP files at one origin
    /// (the item's headers go to its own origin only).
    private static func pair(_ document: [String: Any]) -> Format? {
        let requested = (document["requested_formats"] as? [Any] ?? []).compactMap { $0 as? [String: Any] }
        guard requested.count == 2,
              let video = requested.first(where: { ($0["vcodec"] as? String ?? "none") != "none" }),
              let audio = requested.first(where: { ($0["vcodec"] as? String ?? "none") == "none" && ($0["acodec"] as? String ?? "none") != "none" }),
              let v = video["url"] as? String, let a = audio["url"] as? String, isHTTP(v), isHTTP(a),
              [video, audio].allSatisfy({ !["m3u8", "m3u8_native", "http_dash_segments"].contains($0["protocol"] as? String ?? "https") }),
              let vu = URLComponents(string: v), let au = URLComponents(string: a),
              vu.scheme == au.scheme, vu.host == au.host, vu.port == au.port else { return nil }
        return Format(url: v, headers: headers(of: video), audio: a)
    }

    /// The format yt-dlp chose: the document's own `url` (one format), else the one of
    /// `requested_formats` that carries both video and audio; nil for a separate pair.
    private static func chosenFormat(_ document: [String: Any]) -> Format? {
        if let url = document["url"] as? String, isHTTP(url) { return Format(url: url, headers: headers(of: document)) }
        let requested = (document["requested_formats"] as? [Any] ?? []).compactMap { $0 as? [String: Any] }
        if requested.count == 1, let url = requested[0]["url"] as? String, isHTTP(url) { return Format(url: url, headers: headers(of: requested[0])) }
        if let both = requested.first(where: { ($0["vcodec"] as? String ?? "none") != "none" && ($0["acodec"] as? String ?? "none") != "none" }),
           let url = both["url"] as? String, isHTTP(url) {
            return Format(url: url, headers: headers(of: both))
        }
        return nil
    }

    /// `http_headers` as `Name: value` lines (sorted by name, one line each), and `cookies` (yt-dlp's
    /// `name=value; Domain=…; Path=…` text) as one `Cookie` header of its name=value pairs.
    static func headers(of format: [String: Any]) -> [String] {
        var lines: [String] = []
        var cookie: [String] = []
        for (name, value) in (format["http_headers"] as? [String: Any] ?? [:]).sorted(by: { $0.key < $1.key }) {
            guard let value = value as? String, isToken(name) else { continue }
            if name.lowercased() == "cookie" { cookie.append(oneLine(value)); continue }
            lines.append("\(name): \(oneLine(value))")
        }
        if let cookies = format["cookies"] as? String {
            let attributes: Set<String> = ["domain", "path", "expires", "max-age", "secure", "httponly", "samesite"]
            let pairs = cookies.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.filter { pair in
                guard let eq = pair.firstIndex(of: "="), eq != pair.startIndex else { return false }
                return !attributes.contains(pair[..<eq].lowercased())
            }
            cookie += pairs.map(oneLine)
        }
        if !cookie.isEmpty { lines.append("Cookie: \(cookie.joined(separator: "; "))") }
        return lines
    }

    private static func isHTTP(_ url: String) -> Bool {
        let lower = url.prefix(8).lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    /// A header name as RFC 9110 spells a token.
    private static func isToken(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 100 && name.unicodeScalars.allSatisfy { $0.isASCII && $0.value > 32 && $0.value < 127 && !"()<>@,;:\\\"/[]?={}".unicodeScalars.contains($0) }
    }

    /// A value on one line: CR and LF (a header split in two) become spaces.
    private static func oneLine(_ text: String) -> String {
        String(text.map { $0 == "\r" || $0 == "\n" || $0 == "\r\n" ? " " : $0 })
    }

    private static func number(_ value: Any?) -> Double? {
        guard let n = value as? NSNumber, n.doubleValue.isFinite, n.doubleValue >= 0, n.doubleValue <= BoundedNumber.maximumSeconds else { return nil }
        return n.doubleValue
    }
}
