import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A live MPD as a replay serves it (`ReplayOrigin`). A dynamic MPD's segments are available by
/// the clock (availabilityStartTime + their end), and a replay runs later than the recording:
/// on the desktop's clock the demuxer would ask for segments the recording never saw. So the
/// replay says the recorded time in a `UTCTiming` of the `direct` scheme (the recording's wall
/// clock at this moment of the replay), in place of the MPD's own (whose answers, replayed,
/// would say an hour-old time at the wrong moment); the gateway measures the server's clock
/// from it (`DASHClock`) and serves the MPD on the desktop's, as for any origin whose clock is
/// off. From the recording's last version of it the MPD is closed as a packager closes an
/// event's: `static`, its timelines ending with the last segment the recording fetched,
/// `mediaPresentationDuration` there, so the replayed player plays what was recorded and ends
/// (`LiveDASHEnd` restarts dashdemux2's streams on it).
extension RecordingIndex {
    /// `text` (a dynamic MPD recorded from `url`) on the recorded clock at `wallClock`, closed
    /// when `closing`; nil for what is not a dynamic MPD.
    public func replayedMPD(_ text: String, from url: String, wallClock: Date, closing: Bool) -> String? {
        guard let document = try? MPDDocument.parse(text, options: [.nodePreserveWhitespace, .nodePreserveCDATA]), let root = document.rootElement(), root.localName == "MPD",
              DASHManifestRewriter.attribute(root, "type")?.stringValue == "dynamic" else { return nil }
        for timing in DASHInspection.children(root, "UTCTiming") { timing.detach() }
        if !(closing && close(root, url: url, wallClock: wallClock)) {
            let iso = ISO8601DateFormatter()
            iso.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            let timing = XMLElement(name: "UTCTiming")
            if let uri = root.uri { timing.uri = uri }
            timing.addAttribute(XMLNode.attribute(withName: "schemeIdUri", stringValue: DASHClock.Scheme.direct.rawValue) as! XMLNode)
            timing.addAttribute(XMLNode.attribute(withName: "value", stringValue: iso.string(from: wallClock)) as! XMLNode)
            root.addChild(timing)
        }
        return document.xmlString(options: [.nodePreserveEmptyElements, .nodePreserveNamespaceOrder, .nodePreserveAttributeOrder,
                                            .nodePreserveCDATA, .nodePreserveQuotes, .nodePreserveWhitespace])
    }

    /// Where the recording's segments of the last Period end (seconds of its presentation time),
    /// per AdaptationSet: the end of the latest segment fetched of any of its Representations.
    /// Empty when the recording fetched none of them.
    func recordedEnds(_ root: XMLElement, url: String, wallClock: Date) -> [ObjectIdentifier: Double] {
        guard let mpdURL = URL(string: url), let period = DASHInspection.children(root, "Period").last else { return [:] }
        let periodBase = DASHSegments.baseURL(period, over: DASHSegments.baseURL(root, over: mpdURL))
        let anchor = DASHInspection.attribute(root, "availabilityStartTime").flatMap(DASHLiveWindow.date)
        let periodStart = DASHNumber.seconds(period, "start") ?? 0
        var ends: [ObjectIdentifier: Double] = [:]
        for set in DASHInspection.children(period, "AdaptationSet") {
            let setBase = DASHSegments.baseURL(set, over: periodBase)
            var end: Double?
            for (n, rep) in DASHInspection.children(set, "Representation").enumerated() {
                let templates = [rep, set, period].compactMap { DASHInspection.children($0, "SegmentTemplate").first }
                guard let media = templates.lazy.compactMap({ DASHInspection.attribute($0, "media") }).first else { continue }
                let repBase = DASHSegments.baseURL(rep, over: setBase)
                let id = DASHInspection.attribute(rep, "id") ?? String(n), bandwidth = DASHNumber.integer(rep, "bandwidth")
                let timescale = DASHNumber.timescale(templates)
                let pto = templates.lazy.compactMap { DASHNumber.read($0, "presentationTimeOffset", .ticks) }.first ?? 0
                let startNumber = templates.lazy.compactMap { DASHNumber.integer($0, "startNumber") }.first ?? 1
                func fetched(_ number: Int, _ time: Double) -> Bool {
                    guard let u = URIReference.resolve(DASHSegments.expand(media, id: id, bandwidth: bandwidth, number: number, time: time), against: repBase) else { return false }
                    return answered.contains(RecordingKey.of(u.absoluteString))
                }
                if let timeline = templates.lazy.compactMap({ DASHInspection.children($0, "SegmentTimeline").first }).first {
                    let segments = DASHTimeline.walk(timeline, startNumber: startNumber, openEnd: nil).segments
                    if let last = segments.last(where: { fetched($0.number, $0.t) }) { end = max(end ?? 0, (last.t + last.d - pto) / timescale) }
                } else if let d = templates.lazy.compactMap({ DASHNumber.read($0, "duration", .positiveTicks) }).first, let anchor {
                    // Numbered by the clock: down from the live edge at `wallClock`.
                    let edge = Int(max(0, min(1e9, (wallClock.timeIntervalSince(anchor) - periodStart) * timescale / d)))
                    if let k = stride(from: edge, through: max(0, edge - 2000), by: -1).first(where: { fetched(startNumber + $0, Double($0) * d + pto) }) {
                        end = max(end ?? 0, Double(k + 1) * d / timescale)
                    }
                }
            }
            if let end { ends[ObjectIdentifier(set)] = end }
        }
        return ends
    }

    /// Closes `root` where the recording ends: each AdaptationSet's timelines end with the last
    /// segment the recording fetched of it (the replayed player, its streams restarted on the
    /// static MPD by `LiveDASHEnd`, asks for nothing the recording lacks), and the presentation
    /// with the latest of them. False (untouched) when the recording fetched no segment of it.
    private func close(_ root: XMLElement, url: String, wallClock: Date) -> Bool {
        let ends = recordedEnds(root, url: url, wallClock: wallClock)
        guard let latest = ends.values.max(), let period = DASHInspection.children(root, "Period").last else { return false }
        func trim(_ template: XMLElement, to end: Double) {
            guard let timeline = DASHInspection.children(template, "SegmentTimeline").first else { return }
            let timescale = DASHNumber.timescale([template])
            let pto = DASHNumber.read(template, "presentationTimeOffset", .ticks) ?? 0
            let startNumber = DASHNumber.integer(template, "startNumber") ?? 1
            let kept = DASHTimeline.walk(timeline, startNumber: startNumber, openEnd: nil).segments.filter { ($0.t + $0.d - pto) / timescale <= end + 1e-6 }
            DASHCatchup.replace(timeline, with: kept.map { ($0.t, $0.d) })
        }
        for set in DASHInspection.children(period, "AdaptationSet") {
            for template in DASHCatchup.descendants(set, "SegmentTemplate") { trim(template, to: ends[ObjectIdentifier(set)] ?? latest) }
        }
        // A template the Period's sets share ends with the latest of them.
        for template in DASHInspection.children(period, "SegmentTemplate") { trim(template, to: latest) }
        for name in ["minimumUpdatePeriod", "timeShiftBufferDepth", "suggestedPresentationDelay"] {
            DASHManifestRewriter.attribute(root, name)?.detach()
        }
        DASHCatchup.set(root, "type", "static")
        DASHCatchup.set(root, "mediaPresentationDuration", "PT" + String(format: "%.3f", (DASHNumber.seconds(period, "start") ?? 0) + latest) + "S")
        return true
    }
}
