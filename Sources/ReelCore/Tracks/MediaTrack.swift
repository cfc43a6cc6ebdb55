/// One audio, subtitle or video stream of the current item (playbin3's stream collection, or an
/// external subtitle file: `isExternal`), as menus, the socket's `tracks` and the event stream
/// show it.
public struct MediaTrack: Equatable, Sendable {
    public enum Kind: String, Sendable { case video, audio, subtitle }

    /// playbin3's stream id (what select-streams takes); "file:N" for the Nth external file.
    public var id: String
    public var kind: Kind
    /// The language tag as the file gives it ("en", "eng", "fr"…), nil when untagged.
    public var language: String?
    public var title: String?
    /// A subtitle file beside the media or given with `--sub-file`: drawn by Reel's overlay, not
    /// one of playbin3's streams.
    public var isExternal: Bool

    public init(id: String, kind: Kind, language: String? = nil, title: String? = nil, isExternal: Bool = false) {
        self.id = id
        self.kind = kind
        self.language = language
        self.title = title
        self.isExternal = isExternal
    }

    /// An HLS rendition's NAME (`EXT-X-MEDIA`), read from the stream id hlsdemux2 gives it:
    /// GStreamer 1.22 names a rendition's stream "audio-NAME" or "text-NAME" (else "-LANGUAGE")
    /// and puts no title tag on it, so "English (Audio Description)" and "Commentary" were both
    /// listed by their language only, where mpv lists the NAME. nil for any other id: dashdemux2's
    /// "audio-0", the main variant's "main-video-0", a file demuxer's "hash/001", and a rest that
    /// is only the language.
    public static func renditionName(streamID id: String, kind: Kind, language: String?) -> String? {
        let prefix: String
        switch kind {
        case .audio: prefix = "audio-"
        case .subtitle: prefix = "text-"
        case .video: return nil
        }
        guard id.hasPrefix(prefix) else { return nil }
        let name = String(id.dropFirst(prefix.count))
        guard !name.trimmingCharacters(in: .whitespaces).isEmpty, !name.allSatisfy(\.isNumber),
              name.lowercased() != language?.lowercased() else { return nil }
        return name
    }

    /// "English (en)", "Track 2", "French", "fr" — what a menu row says.
    public func label(number: Int) -> String {
        switch (title, language) {
        case let (t?, l?) where !t.isEmpty && t.lowercased() != l.lowercased(): "\(t) (\(l))"
        case let (t?, _) where !t.isEmpty: t
        case let (_, l?): l
        default: "Track \(number)"
        }
    }
}
