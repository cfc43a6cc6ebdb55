import Foundation

/// Rewrites every URI of a master or media playlist — URI lines and `URI="…"` attributes of
/// every `#EXT` tag (variants, renditions, I-frame playlists, keys, maps, parts, preload hints,
/// rendition reports) — and nothing else: every other byte (BOM, CRLF, blanks, comments,
/// attribute order and quoting) is kept. `skd://`, `data:` and other non-HTTP URIs are left alone.
///
/// Two edits, both optional, in this order:
/// 1. `queryToken`: on the URI as written, remove every query parameter with the token's name and
///    append exactly one `name=value` (other parameters and their order are kept).
/// 2. `mapping`: the URI, resolved against `baseURL`, is handed to the mapping, whose answer
///    replaces it (nil keeps it). The gateway maps upstream URLs to its own.
///
/// `appendEndList` adds `#EXT-X-ENDLIST` to a media playlist that lacks it (a finished event
/// plays as VOD with a finite duration).
public struct HLSPlaylistRewriter: Sendable {
    /// One URI met in the playlist.
    public struct Reference: Sendable, Equatable {
        public var kind: HLSURIKind
        /// As written in the playlist.
        public var original: String
        /// After the query-token edit, resolved against the base URL (nil when it cannot be).
        public var absoluteURL: URL?
        /// What the playlist now says.
        public var rewritten: String
    }

    public struct Output: Sendable {
        public var text: String
        public var references: [Reference]
        public var isMaster: Bool
        /// `#EXT-X-ENDLIST` was added.
        public var appendedEndList: Bool
    }

    public struct QueryToken: Sendable {
        public var name: String
        public var value: String
        /// Which URIs get it (default: every fetchable URI).
        public var kinds: Set<HLSURIKind>
        public init(name: String = "Authorization", value: String, kinds: Set<HLSURIKind> = Set(HLSURIKind.allCases)) {
            self.name = name; self.value = value; self.kinds = kinds
        }
    }

    public typealias Mapping = @Sendable (_ kind: HLSURIKind, _ absoluteURL: URL) -> String?

    public var baseURL: URL?
    public var queryToken: QueryToken?
    public var mapping: Mapping?
    public var appendEndList: Bool

    /// `file:` references are mapped too (a local playlist served by the gateway); never for a
    /// playlist that came from the network, which may not reach local files.
    public var allowsLocalFiles: Bool

    public init(baseURL: URL?, queryToken: QueryToken? = nil, appendEndList: Bool = false, allowsLocalFiles: Bool = false, mapping: Mapping? = nil) {
        self.baseURL = baseURL; self.allowsLocalFiles = allowsLocalFiles; self.queryToken = queryToken; self.appendEndList = appendEndList
        self.mapping = mapping
    }

    public func rewrite(_ text: String) -> Output {
        let lines = HLSLine.split(text)
        let isMaster = lines.contains { line in
            guard let tag = line.tag?.name else { return false }
            return tag == "#EXT-X-STREAM-INF" || tag == "#EXT-X-I-FRAME-STREAM-INF" || tag == "#EXT-X-MEDIA"
        }
        var out = ""
        out.reserveCapacity(text.utf8.count + text.utf8.count / 4)
        var references: [Reference] = []
        var hasEndList = false
        for line in lines {
            let trimmed = line.trimmed
            if trimmed.isEmpty {
                out += line.content
            } else if let (name, value) = line.tag {
                if name == "#EXT-X-ENDLIST" { hasEndList = true }
                guard name.hasPrefix("#EXT"), !value.isEmpty else {
                    out += line.content
                    out += line.terminator
                    continue
                }
                // Replace the value of every URI attribute, in place.
                let attributes = HLSAttributeList(parsing: value).attributes.filter { $0.name == "URI" }
                var cursor = line.content.startIndex
                for attribute in attributes {
                    let kind = HLSURIKind.forTag(name)
                    let reference = rewriteReference(attribute.value, kind: kind)
                    out += line.content[cursor..<attribute.valueRange.lowerBound]
                    out += reference.rewritten
                    cursor = attribute.valueRange.upperBound
                    references.append(reference)
                }
                out += line.content[cursor...]
            } else {
                let reference = rewriteReference(String(trimmed), kind: isMaster ? .variant : .segment)
                out += line.content[..<trimmed.startIndex]
                out += reference.rewritten
                out += line.content[trimmed.endIndex...]
                references.append(reference)
            }
            out += line.terminator
        }
        var appended = false
        if appendEndList && !isMaster && !hasEndList && HLSPlaylist.looksLikePlaylist(Substring(text)) {
            let newline = lines.first.map { $0.terminator.isEmpty ? "\n" : String($0.terminator) } ?? "\n"
            if let last = lines.last, last.terminator.isEmpty { out += newline }
            out += "#EXT-X-ENDLIST" + newline
            appended = true
        }
        return Output(text: out, references: references, isMaster: isMaster, appendedEndList: appended)
    }

    private func rewriteReference(_ original: String, kind: HLSURIKind) -> Reference {
        if !allowsLocalFiles, URIReference.scheme(of: original) == "file" {
            // A network playlist naming a local file: with a mapping (the gateway) the player is
            // sent to the gateway, which refuses it (403); it is never left in the playlist for a
            // demuxer's filesrc to open (GstDiscoverer's hlsdemux opened a FIFO named there and
            // hung; a file named there was read).
            let absolute = URL(string: original)
            let mapped = absolute.flatMap { mapping?(kind, $0) }
            return Reference(kind: kind, original: original, absoluteURL: absolute, rewritten: mapped ?? original)
        }
        guard URIReference.isFetchable(original, allowingFiles: allowsLocalFiles) else {
            return Reference(kind: kind, original: original, absoluteURL: nil, rewritten: original)
        }
        var edited = original
        if let token = queryToken, token.kinds.contains(kind) {
            edited = URIReference.settingQueryParameter(token.name, to: token.value, in: original)
        }
        let absolute = URIReference.resolve(edited, against: baseURL)
        var rewritten = edited
        if let mapping, let absolute, URIReference.isFetchable(absolute.absoluteString, allowingFiles: allowsLocalFiles), let mapped = mapping(kind, absolute) {
            rewritten = mapped
        }
        return Reference(kind: kind, original: original, absoluteURL: absolute, rewritten: rewritten)
    }
}
