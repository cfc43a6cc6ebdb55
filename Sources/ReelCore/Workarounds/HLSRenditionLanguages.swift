/// GStreamer 1.22 workaround, the decision part: renditions of one group in one language stay
/// apart.
///
/// hlsdemux2 (1.22, `existing_rendition_stream`) makes one stream per media type and NAME *or*
/// LANGUAGE: a second `EXT-X-MEDIA` of the same TYPE and LANGUAGE joins the first one's stream,
/// and the last one listed is what that stream plays. A master with "English" (DEFAULT=YES) then
/// "English (Commentary)" — as ffmpeg's HLS muxer writes two audio tracks of one language, and
/// as Apple's authoring spec lists a described-audio track — played the commentary, and listed
/// one audio track. The gateway serves the master with the LANGUAGE of every later rendition
/// that shares TYPE, GROUP-ID and LANGUAGE with an earlier one tagged with a private-use subtag
/// (BCP 47 §2.2.7: "en" becomes "en-x-reel2", which names no other language); the engine reads
/// the language back without it (`LanguageCode.withoutReelSubtag`). Renditions of other groups
/// keep theirs: one language across groups (a stereo group and a 5.1 group) is one stream, chosen
/// by the variant, as hlsdemux2 means it. Pure: text in, text out, every other byte kept.
public enum HLSRenditionLanguages {
    /// The private-use subtag's prefix: "-x-reel" and the rendition's rank among its namesakes.
    public static let subtagPrefix = "-x-reel"

    /// `text` (a master) with the later namesakes' LANGUAGE tagged; `text` itself when none share.
    public static func separating(_ text: String) -> String {
        guard text.contains("#EXT-X-MEDIA") else { return text }
        let lines = HLSLine.split(text)
        var seen: [String: Int] = [:]
        var changed = false
        var out = ""
        out.reserveCapacity(text.utf8.count + 64)
        for line in lines {
            defer { out += line.terminator }
            let content = line.content
            let tag = "#EXT-X-MEDIA:"
            guard content.hasPrefix(tag) else { out += content; continue }
            let attributes = HLSAttributeList(parsing: content.dropFirst(tag.count))
            // hlsdemux2 makes no stream of a rendition without a URI (carried in the variant).
            guard let type = attributes["TYPE"], let group = attributes["GROUP-ID"], let language = attributes["LANGUAGE"],
                  !language.isEmpty, attributes["URI"] != nil,
                  let value = attributes.attributes.first(where: { $0.name == "LANGUAGE" }) else { out += content; continue }
            let key = [type, group, language].joined(separator: "\u{0}")
            let rank = (seen[key] ?? 0) + 1
            seen[key] = rank
            guard rank > 1 else { out += content; continue }
            out += String(content[..<value.valueRange.lowerBound]) + language + subtagPrefix + String(rank) + String(content[value.valueRange.upperBound...])
            changed = true
        }
        return changed ? out : text
    }
}
