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
        let total = DASHInspection.attribute(root, "mediaPresentationDuration").flatMap(DASHInspection.isoDuration)
        let periodDuration = DASHInspection.attribute(period, "duration").flatMap(DASHInspection.isoDuration)
            ?? total.map { $0 - (DASHInspection.attribute(period, "start").flatMap(DASHInspection.isoDuration) ?? 0) }
        let mpdBase = baseURL(root, over: base)
        let periodBase = baseURL(period, over: mpdBase)
        var out: [Representation] = []
        for set in DASHInspection.children(period, "AdaptationSet") {
            let setBase = baseURL(set, over: periodBase)
            for (n, rep) in DASHInspection.children(set, "Representation").enumerated() {
                let repBase = baseURL(rep, over: setBase)
                let id = DASHInspection.attribute(rep, "id") ?? String(n)
                let bandwidth = DASHInspection.attribute(rep, "bandwidth").flatMap(Int.init)
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
                    let timescale = value("timescale").flatMap(Double.init).flatMap { $0 > 0 ? $0 : nil } ?? 1
                    let startNumber = value("startNumber").flatMap(Int.init) ?? 1
                    if let initialization = value("initialization") {
                        r.initialization = URIReference.resolve(expand(initialization, id: id, bandwidth: bandwidth, number: nil, time: nil), against: repBase)
                    }
                    guard let media = value("media") else {
                        out.append(r)
                        continue
                    }
                    var times: [(number: Int, time: Double)] = []
                    var ticks = 0.0
                    if let timeline = templates.lazy.compactMap({ DASHInspection.children($0, "SegmentTimeline").first }).first {
                        var t = 0.0, number = startNumber
                        let entries = DASHInspection.children(timeline, "S")
                        for (i, s) in entries.enumerated() {
                            if let start = DASHInspection.attribute(s, "t").flatMap(Double.init) { t = start }
                            guard let d = DASHInspection.attribute(s, "d").flatMap(Double.init), d > 0 else { continue }
                            var repeats = DASHInspection.attribute(s, "r").flatMap(Int.init) ?? 0
                            if repeats < 0 {
                                let until = i + 1 < entries.count ? DASHInspection.attribute(entries[i + 1], "t").flatMap(Double.init) : periodDuration.map { $0 * timescale }
                                repeats = until.map { max(0, Int((($0 - t) / d).rounded(.up)) - 1) } ?? 0
                            }
                            for _ in 0...min(repeats, 100_000) {
                                times.append((number, t))
                                t += d
                                ticks += d
                                number += 1
                            }
                        }
                        r.duration = ticks / timescale
                    } else if let d = value("duration").flatMap(Double.init), d > 0, let total = periodDuration {
                        let count = min(100_000, max(1, Int((total * timescale / d - 1e-9).rounded(.up))))
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
                    if let d = DASHInspection.attribute(list, "duration").flatMap(Double.init) {
                        r.duration = Double(r.media.count) * d / (DASHInspection.attribute(list, "timescale").flatMap(Double.init) ?? 1)
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
            let width = format.hasPrefix("%0") && format.hasSuffix("d") ? Int(format.dropFirst(2).dropLast()) ?? 1 : 1
            func padded(_ v: Int) -> String {
                let s = String(v)
                return String(repeating: "0", count: max(0, width - s.count)) + s
            }
            switch name {
            case "RepresentationID": out += id
            case "Number": out += number.map(padded) ?? "$\(token)$"
            case "Time": out += time.map { padded(Int($0)) } ?? "$\(token)$"
            case "Bandwidth": out += bandwidth.map(padded) ?? "$\(token)$"
            default: out += "$\(token)$"
            }
        }
        return out + rest
    }
}
