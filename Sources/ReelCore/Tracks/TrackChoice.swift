/// Which audio and subtitle tracks play: the user's language preferences (`--alang`, `--slang`:
/// lists, first match wins), the choice carried over from the previous item when the languages
/// match, else the file's first audio track and no subtitles — unless a subtitle file goes with
/// the media (beside it, or `--sub-file`): then it is shown, as mpv and VLC do. Cycling (`#`, `j`) goes through the
/// tracks in order; subtitles cycle through "off" too. Pure: table-tested.
public struct TrackChoice: Equatable, Sendable {
    public var audio: String?
    public var subtitle: String?

    public init(audio: String? = nil, subtitle: String? = nil) { self.audio = audio; self.subtitle = subtitle }

    /// The choice for an item with `tracks`: `alang`/`slang` first, then the languages of what was
    /// chosen before (`previous`, in the previous item's tracks), then the defaults.
    public static func initial(_ tracks: [MediaTrack], alang: [String] = [], slang: [String] = [],
                               previous: (audio: String?, subtitle: String?) = (nil, nil)) -> TrackChoice {
        let audio = tracks.filter { $0.kind == .audio }
        let subtitles = tracks.filter { $0.kind == .subtitle }
        func first(_ list: [MediaTrack], in languages: [String]) -> MediaTrack? {
            for wanted in languages { if let t = list.first(where: { LanguageCode.matches($0.language, wanted) }) { return t } }
            return nil
        }
        let chosenAudio = first(audio, in: alang) ?? first(audio, in: previous.audio.map { [$0] } ?? []) ?? audio.first
        let chosenSubtitle = first(subtitles, in: slang) ?? first(subtitles, in: previous.subtitle.map { [$0] } ?? [])
            ?? subtitles.first(where: \.isExternal)
        return TrackChoice(audio: chosenAudio?.id, subtitle: chosenSubtitle?.id)
    }

    /// The next audio track after `audio` (wrapping).
    public static func nextAudio(after audio: String?, in tracks: [MediaTrack]) -> String? {
        let ids = tracks.filter { $0.kind == .audio }.map(\.id)
        guard !ids.isEmpty else { return nil }
        guard let audio, let i = ids.firstIndex(of: audio) else { return ids[0] }
        return ids[(i + 1) % ids.count]
    }

    /// The next subtitle track after `subtitle`: each in order, then off (nil), then the first.
    public static func nextSubtitle(after subtitle: String?, in tracks: [MediaTrack]) -> String? {
        let ids = tracks.filter { $0.kind == .subtitle }.map(\.id)
        guard !ids.isEmpty else { return nil }
        guard let subtitle, let i = ids.firstIndex(of: subtitle) else { return ids[0] }
        return i + 1 < ids.count ? ids[i + 1] : nil
    }

    /// The stream ids for playbin3's select-streams: every video track, the chosen audio and,
    /// when shown, the chosen subtitle if it is one of playbin3's (an external file is Reel's).
    public func streamIDs(_ tracks: [MediaTrack], subtitlesShown: Bool) -> [String] {
        tracks.filter { t in
            switch t.kind {
            case _ where t.isExternal: false
            case .video: true
            case .audio: t.id == audio
            case .subtitle: subtitlesShown && t.id == subtitle
            }
        }.map(\.id)
    }
}
