import Foundation

/// Language tags as files and users write them: ISO 639-1 ("en"), 639-2/T ("eng", "fra") and
/// 639-2/B ("fre", "ger"), any case, with a region or script after a dash ("en-US"). Two tags
/// match when they name the same language.
public enum LanguageCode {
    /// 639-2 codes (T and B) of the languages with a 639-1 code that films are most often tagged in.
    static let twoLetter: [String: [String]] = [
        "en": ["eng"], "fr": ["fra", "fre"], "de": ["deu", "ger"], "es": ["spa"], "it": ["ita"], "pt": ["por"],
        "nl": ["nld", "dut"], "sv": ["swe"], "no": ["nor"], "nb": ["nob"], "da": ["dan"], "fi": ["fin"], "pl": ["pol"],
        "cs": ["ces", "cze"], "sk": ["slk", "slo"], "hu": ["hun"], "ro": ["ron", "rum"], "el": ["ell", "gre"],
        "ru": ["rus"], "uk": ["ukr"], "tr": ["tur"], "ar": ["ara"], "he": ["heb"], "fa": ["fas", "per"], "hi": ["hin"],
        "ja": ["jpn"], "zh": ["zho", "chi"], "ko": ["kor"], "th": ["tha"], "vi": ["vie"], "id": ["ind"], "ms": ["msa", "may"],
        "ca": ["cat"], "eu": ["eus", "baq"], "gl": ["glg"], "hr": ["hrv"], "sr": ["srp"], "bg": ["bul"], "sl": ["slv"],
        "et": ["est"], "lv": ["lav"], "lt": ["lit"], "is": ["isl", "ice"], "ga": ["gle"], "cy": ["cym", "wel"],
    ]

    /// The language's 639-1 code when known, else the tag's own primary subtag, lower case.
    public static func canonical(_ tag: String) -> String {
        let primary = String(tag.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).first ?? "")
        if twoLetter[primary] != nil { return primary }
        return twoLetter.first { $0.value.contains(primary) }?.key ?? primary
    }

    public static func matches(_ a: String?, _ b: String?) -> Bool {
        guard let a, let b, !a.isEmpty, !b.isEmpty else { return false }
        return canonical(a) == canonical(b)
    }

    /// A BCP 47 language tag as HLS's LANGUAGE writes it ("en", "en-US", "es-419", "zh-Hant-TW"):
    /// GStreamer keeps one that is not a bare ISO 639 code ("en-US") as a language *name* tag,
    /// which Reel then read as no language at all (`--alang en` did not find "en-US"). A name
    /// such as "English" is not a tag.
    public static func isTag(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard let primary = parts.first, (2...3).contains(primary.count), primary.allSatisfy({ $0.isASCII && $0.isLetter }) else { return false }
        return parts.dropFirst().allSatisfy { (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
    }

    /// `tag` without the private-use subtag the gateway adds to keep same-language renditions
    /// apart (`HLSRenditionLanguages`): "en-x-reel2" is "en".
    public static func withoutReelSubtag(_ tag: String) -> String {
        guard let range = tag.range(of: HLSRenditionLanguages.subtagPrefix, options: [.caseInsensitive, .backwards]),
              !tag[range.upperBound...].isEmpty, tag[range.upperBound...].allSatisfy(\.isNumber) else { return tag }
        return String(tag[..<range.lowerBound])
    }
}
