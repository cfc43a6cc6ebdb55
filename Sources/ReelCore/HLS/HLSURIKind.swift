/// What a URI in a playlist refers to, by the tag (or line) it sits in.
public enum HLSURIKind: String, Sendable, Hashable, CaseIterable, Codable {
    case variant            // URI line after #EXT-X-STREAM-INF
    case iFramePlaylist     // #EXT-X-I-FRAME-STREAM-INF URI=
    case rendition          // #EXT-X-MEDIA URI=
    case segment            // URI line of a media playlist
    case key                // #EXT-X-KEY URI=
    case sessionKey         // #EXT-X-SESSION-KEY URI=
    case map                // #EXT-X-MAP URI=
    case part               // #EXT-X-PART URI=
    case preloadHint        // #EXT-X-PRELOAD-HINT URI=
    case renditionReport    // #EXT-X-RENDITION-REPORT URI=
    case sessionData        // #EXT-X-SESSION-DATA URI=
    case other              // URI= in any other #EXT tag

    /// Kinds whose target is itself a playlist (the gateway rewrites those bodies too).
    public var isPlaylist: Bool { self == .variant || self == .iFramePlaylist || self == .rendition || self == .renditionReport }

    /// Kinds that are media data of a media playlist (segments and what they are made of).
    public var isMediaData: Bool { self == .segment || self == .map || self == .part || self == .preloadHint }

    static func forTag(_ tag: Substring) -> HLSURIKind {
        switch tag {
        case "#EXT-X-I-FRAME-STREAM-INF": .iFramePlaylist
        case "#EXT-X-MEDIA": .rendition
        case "#EXT-X-KEY": .key
        case "#EXT-X-SESSION-KEY": .sessionKey
        case "#EXT-X-MAP": .map
        case "#EXT-X-PART": .part
        case "#EXT-X-PRELOAD-HINT": .preloadHint
        case "#EXT-X-RENDITION-REPORT": .renditionReport
        case "#EXT-X-SESSION-DATA": .sessionData
        default: .other
        }
    }
}
