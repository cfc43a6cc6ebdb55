import Foundation

/// The subtitle files that go with a media file, found as mpv (`sub-auto=exact`), VLC and Totem
/// find them: beside it or in a `Subs`/`Subtitles` folder next to it, named like it (its name
/// without the extension, any case) with a subtitle extension, optionally with a language and
/// flags between ("Film.srt", "Film.en.srt", "Film.eng.forced.vtt", "Film.English.ass",
/// "Film.pt-BR.srt"). Pure: the caller lists the folders.
public enum SidecarSubtitles {
    /// A subtitle file found for a media file.
    public struct Match: Equatable, Sendable {
        /// The file's path relative to the media file's folder ("Film.en.srt", "Subs/Film.srt").
        public var path: String
        /// The language named in the file name (a tag as written: "en", "eng", "pt-BR"; a name
        /// such as "English" is given as its 639-1 code).
        public var language: String?
        /// What the name says besides the language ("forced", "sdh"), for the track's title.
        public var flags: [String]

        public init(path: String, language: String? = nil, flags: [String] = []) {
            self.path = path
            self.language = language
            self.flags = flags
        }
    }

    /// The folders, relative to the media file's, that are searched besides its own.
    public static let subfolders = ["Subs", "subs", "Subtitles", "subtitles", "Sub", "sub"]

    /// The matches for `mediaName` among `names` (paths relative to its folder, as listed: the
    /// folder's files and those of `subfolders`), the plain name first, then by path.
    public static func matches(for mediaName: String, among names: [String]) -> [Match] {
        let stem = (mediaName as NSString).deletingPathExtension.lowercased()
        let mediaExtension = (mediaName as NSString).pathExtension.lowercased()
        guard !stem.isEmpty else { return [] }
        var found: [Match] = []
        for path in names where path != mediaName && SubtitleFile.Format(fileName: path) != nil {
            let folder = (path as NSString).deletingLastPathComponent
            guard folder.isEmpty || subfolders.contains(folder) else { continue }
            let base = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
            let lower = base.lowercased()
            if lower == stem {
                found.append(Match(path: path))
            } else if lower.hasPrefix(stem + "."), base.count > stem.count + 1 {
                let parts = base.dropFirst(stem.count + 1).split(separator: ".").map(String.init)
                var language: String?
                var flags: [String] = []
                for part in parts where part.lowercased() != mediaExtension {  // "Film.mkv.srt"
                    if language == nil, let code = languageTag(part) { language = code } else { flags.append(part.lowercased()) }
                }
                found.append(Match(path: path, language: language, flags: flags))
            }
        }
        return found.sorted { a, b in
            let ka = (a.language != nil || !a.flags.isEmpty, a.path.contains("/"), a.path)
            let kb = (b.language != nil || !b.flags.isEmpty, b.path.contains("/"), b.path)
            return ka.0 != kb.0 ? !ka.0 : ka.1 != kb.1 ? !ka.1 : ka.2.lowercased() < kb.2.lowercased()
        }
    }

    /// A language tag or name in a file name: "en", "eng", "fre", "pt-BR", "zh_Hans", "English".
    static func languageTag(_ part: String) -> String? {
        let lower = part.lowercased()
        if let code = languageNames[lower] { return code }
        let primary = String(lower.split(whereSeparator: { $0 == "-" || $0 == "_" }).first ?? "")
        guard (2...3).contains(primary.count), primary.allSatisfy(\.isLetter) else { return nil }
        let canonical = LanguageCode.canonical(primary)
        return LanguageCode.twoLetter[canonical] != nil ? part : nil
    }

    static let languageNames: [String: String] = [
        "english": "en", "french": "fr", "german": "de", "spanish": "es", "italian": "it", "portuguese": "pt",
        "dutch": "nl", "swedish": "sv", "norwegian": "no", "danish": "da", "finnish": "fi", "polish": "pl",
        "czech": "cs", "hungarian": "hu", "romanian": "ro", "greek": "el", "russian": "ru", "ukrainian": "uk",
        "turkish": "tr", "arabic": "ar", "hebrew": "he", "persian": "fa", "hindi": "hi", "japanese": "ja",
        "chinese": "zh", "korean": "ko", "thai": "th", "vietnamese": "vi", "indonesian": "id", "catalan": "ca",
        "croatian": "hr", "serbian": "sr", "bulgarian": "bg", "slovenian": "sl", "slovak": "sk",
    ]
}

extension SidecarSubtitles {
    /// The language a subtitle file's name gives ("talk.de.srt" → "de", "Film.English.forced.ass"
    /// → "en"), looking at the dotted parts after the first, last first; nil when none is one.
    public static func language(inFileName name: String) -> String? {
        let base = ((name as NSString).lastPathComponent as NSString).deletingPathExtension
        for part in base.split(separator: ".").dropFirst().reversed() {
            if let tag = languageTag(String(part)) { return tag }
        }
        return nil
    }
}
