import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Every segment URL of a static MPD's Representations (`reel check` fetches them all): BaseURLs
/// resolved level by level (MPD, Period, AdaptationSet, Representation; §5.6), `SegmentTemplate`
/// expanded (§5.3.9.4.4: `$RepresentationID$`, `$Number$`, `$Time$`, `$Bandwidth$`, with `%0Nd`
/// widths, `$$`) over its `SegmentTimeline` or `@duration`, `SegmentList` URLs, or the one file of a
/// `SegmentBase`. Pure.
public enum DASHSegments {
    public struct Representation: Equatable, Sendable {
        public var id: String
        public var bandwidth: Int?
        /// Seconds the media segments cover (nil when the MPD does not say).
        public var duration: Double?
        public var initialization: URL?
        public var media: [URL]
    }

    /// The Representations of the first Period with their segments; empty when not a static MPD.
    public static func list(_ text: String, base: URL) -> [Representation] {
        guard let document = try? MPDDocument.parse(text), let root = document.rootElement(), root.localName == "MPD",
              (DASHInspection.attribute(root, "type") ?? "static") == "static",
              let period = DASHInspection.children(root, "Period").first else { return [] }
        let total = DASHNumber.seconds(root, "mediaPresentationDuration")
        let periodDuration = DASHNumber.seconds(period, "duration")
            ?? total.map { max(0, $0 - (DASHNumber.seconds(period, "start") ?? 0)) }
        let mpdBase = baseURL(root, over: base)
        let periodBase = baseURL(period, over: mpdBase)
        var out: [Representation] = []
        for set in DASHInspection.children(period, "AdaptationSet") {
            let setBase = baseURL(set, over: periodBase)
            for (n, rep) in DASHInspection.children(set, "Representation").enumerated() {
                let repBase = baseURL(rep, over: setBase)
                let id = DASHInspection.attribute(rep, "id") ?? String(n)
                let bandwidth = DASHNumber.integer(rep, "bandwidth")
                var r = Representation(id: id, bandwidth: bandwidth, duration: nil, initialization: nil, media: [])
                let levels = [rep, set, period]
                guard let nearest = levels.firstIndex(where: { level in
                    ["SegmentTemplate", "SegmentList", "SegmentBase"].contains { !DASHInspection.children(level, $0).isEmpty }
                }) else {
                    if !DASHInspection.children(rep, "BaseURL").isEmpty { r.media = [repBase] }
                    r.duration = periodDuration
                    out.append(r)
                    continue
                }
                let level = levels[nearest]
                if !DASHInspection.children(level, "SegmentTemplate").isEmpty {
                    let templates = levels[nearest...].compactMap { DASHInspection.children($0, "SegmentTemplate").first }
                    func value(_ name: String) -> String? { templates.lazy.compactMap { DASHInspection.attribute($0, name) }.first }
                    let timescale = DASHNumber.timescale(templates)
                    let startNumber = templates.lazy.compactMap { DASHNumber.integer($0, "startNumber") }.first ?? 1
                    if let initialization = value("initialization") {
                        r.initialization = URIReference.resolve(expand(initialization, id: id, bandwidth: bandwidth, number: nil, time: nil), against: repBase)
                    }
                    guard let media = value("media") else {
                        out.append(r)
                        continue
                    }
                    var times: [(number: Int, time: Double)] = []
                    if let timeline = templates.lazy.compactMap({ DASHInspection.children($0, "SegmentTimeline").first }).first {
                        let walk = DASHTimeline.walk(timeline, startNumber: startNumber, openEnd: periodDuration.map { $0 * timescale })
                        times = walk.segments.map { ($0.number, $0.t) }
                        r.duration = walk.segments.reduce(0) { $0 + $1.d } / timescale
                    } else if let d = templates.lazy.compactMap({ DASHNumber.read($0, "duration", .positiveTicks) }).first, let total = periodDuration {
                        let count = Int(min(100_000, max(1, (total * timescale / d - 1e-9).rounded(.up))))
                        times = (0..<count).map { (startNumber + $0, Double($0) * d) }
                        r.duration = total
                    }
                    r.media = times.compactMap { URIReference.resolve(expand(media, id: id, bandwidth: bandwidth, number: $0.number, time: $0.time), against: repBase) }
                } else if let list = DASHInspection.children(level, "SegmentList").first {
                    if let initialization = DASHInspection.children(list, "Initialization").first.flatMap({ DASHInspection.attribute($0, "sourceURL") }) {
                        r.initialization = URIReference.resolve(initialization, against: repBase)
                    }
                    r.media = DASHInspection.children(list, "SegmentURL").compactMap { DASHInspection.attribute($0, "media") }
                        .compactMap { URIReference.resolve($0, against: repBase) }
                    if let d = DASHNumber.read(list, "duration", .positiveTicks) {
                        r.duration = Double(r.media.count) * d / (DASHNumber.read(list, "timescale", .timescale) ?? 1)
                    }
                } else {
                    r.media = [repBase]
                    r.duration = periodDuration
                }
                out.append(r)
            }
        }
        return out
    }

    /// A level's first BaseURL resolved against the one above it (the one above when it has none).
    static func baseURL(_ element: XMLElement, over base: URL) -> URL {
        guard let text = DASHInspection.children(element, "BaseURL").first?.stringValue?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty,
              let url = URIReference.resolve(text, against: base) else { return base }
        return url
    }

    /// A SegmentTemplate string with its identifiers replaced (§5.3.9.4.4).
    public static func expand(_ template: String, id: String, bandwidth: Int?, number: Int?, time: Double?) -> String {
        var out = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "$") {
            out += rest[..<open]
            let after = rest[rest.index(after: open)...]
            guard let close = after.firstIndex(of: "$") else {
                out += rest[open...]
                return out
            }
            let token = after[..<close]
            rest = after[after.index(after: close)...]
            if token.isEmpty {
                out += "$"
                continue
            }
            let name = token.prefix { $0 != "%" }
            let format = token.dropFirst(name.count)
            let width = format.hasPrefix("%0") && format.hasSuffix("d")
                ? min(DASHNumber.maximumWidth, Int(format.dropFirst(2).dropLast().prefix(6)) ?? 1) : 1
            func padded(_ v: Int) -> String {
                let s = String(v)
                return String(repeating: "0", count: max(0, width - s.count)) + s
            }
            switch name {
            case "RepresentationID": out += id
            case "Number": out += number.map(padded) ?? "$\(token)$"
            case "Time": out += time.map { padded(Int(min(max($0, 0), DASHNumber.maximumTicks))) } ?? "$\(token)$"
            case "Bandwidth": out += bandwidth.map(padded) ?? "$\(token)$"
            default: out += "$\(token)$"
            }
        }
        return out + rest
    }
}
