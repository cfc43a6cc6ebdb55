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
}
