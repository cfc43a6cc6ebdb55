import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Which video Representation a fetched URL belongs to, so that what plays is reported from what
/// the demuxer fetches (as for HLS variants): each video Representation's media as URLs its
/// client resolves (§5.6 BaseURLs, level by level): a `SegmentTemplate`'s `media` with
/// `$RepresentationID$` and `$Bandwidth$` filled in and `$Number$`/`$Time$` standing for any
/// digits, a `SegmentList`'s URLs, or the one file of a `SegmentBase`. Every Period of the MPD
/// (a live one's Periods come and go). Pure.
public struct DASHMediaMatcher: Sendable {
    enum Pattern: Sendable {
        case template(prefix: String, parts: [String])  // literal parts between runs of digits
        case exact(Set<String>)
    }

    /// (Representation id, its media).
    let representations: [(id: String, pattern: Pattern)]

    public var isEmpty: Bool { representations.isEmpty }

    /// The video Representations of the MPD `text` fetched from `base` (nil: not an MPD).
    public init?(_ text: String, base: URL) {
        guard let document = try? MPDDocument.parse(text), let root = document.rootElement(), root.localName == "MPD" else { return nil }
        var reps: [(String, Pattern)] = []
        let mpdBase = DASHSegments.baseURL(root, over: base)
        for period in DASHInspection.children(root, "Period") {
            let periodBase = DASHSegments.baseURL(period, over: mpdBase)
            for set in DASHInspection.children(period, "AdaptationSet") {
                let setBase = DASHSegments.baseURL(set, over: periodBase)
                for (n, rep) in DASHInspection.children(set, "Representation").enumerated() {
                    func value(_ name: String) -> String? { DASHInspection.attribute(rep, name) ?? DASHInspection.attribute(set, name) }
                    let isVideo = (value("mimeType") ?? "").hasPrefix("video/") || value("contentType") == "video" || value("height") != nil
                    guard isVideo else { continue }
                    let id = DASHInspection.attribute(rep, "id") ?? String(n)
                    let bandwidth = DASHNumber.integer(rep, "bandwidth")
                    let repBase = DASHSegments.baseURL(rep, over: setBase)
                    let levels = [rep, set, period]
                    if let media = levels.lazy.compactMap({ DASHInspection.children($0, "SegmentTemplate").first }).compactMap({ DASHInspection.attribute($0, "media") }).first {
                        if let pattern = Self.template(media, id: id, bandwidth: bandwidth, base: repBase) { reps.append((id, pattern)) }
                    } else if let list = levels.lazy.compactMap({ DASHInspection.children($0, "SegmentList").first }).first {
                        let urls = DASHInspection.children(list, "SegmentURL").compactMap { DASHInspection.attribute($0, "media") }
                            .compactMap { URIReference.resolve($0, against: repBase)?.absoluteString }
                        reps.append((id, .exact(Set(urls))))
                    } else {
                        reps.append((id, .exact([repBase.absoluteString])))
                    }
                }
            }
        }
        representations = reps
    }

    /// The id of the video Representation whose media `url` is, nil for anything else (audio,
    /// init segments, the MPD).
    public func representation(of url: URL) -> String? {
        let s = url.absoluteString
        for (id, pattern) in representations {
            switch pattern {
            case .exact(let urls): if urls.contains(s) { return id }
            case .template(let prefix, let parts): if Self.matches(s, prefix: prefix, parts: parts) { return id }
            }
        }
        return nil
    }

    /// A template as literal text between runs of digits: `$Number$` and `$Time$` (with any
    /// `%0Nd` width) stand for digits; the rest is expanded and resolved against the base.
    static func template(_ media: String, id: String, bandwidth: Int?, base: URL) -> Pattern? {
        let marker = "REELDIGITSMARK"
        var expanded = DASHSegments.expand(media, id: id, bandwidth: bandwidth, number: nil, time: nil)
        expanded = expanded.replacingOccurrences(of: #"\$(Number|Time)(%0[0-9]+d)?\$"#, with: marker, options: .regularExpression)
        guard !expanded.contains("$"), let resolved = URIReference.resolve(expanded, against: base)?.absoluteString else { return nil }
        let pieces = resolved.components(separatedBy: marker)
        return .template(prefix: pieces[0], parts: Array(pieces.dropFirst()))
    }

    static func matches(_ s: String, prefix: String, parts: [String]) -> Bool {
        guard s.hasPrefix(prefix) else { return false }
        var rest = Substring(s.dropFirst(prefix.count))
        for part in parts {
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty else { return false }
            rest = rest.dropFirst(digits.count)
            guard rest.hasPrefix(part) else { return false }
            rest = rest.dropFirst(part.count)
        }
        return rest.isEmpty
    }
}
