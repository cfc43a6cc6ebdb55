import Foundation
#if canImport(ReelCore)
@testable import ReelCore
#endif

/// Issue 28: every number that comes from outside, at its extremes. The input's text becomes a
/// number (as a client or a playlist would write it: 1e300, -0, 9223372036854775807, 1e-320 …),
/// and that number goes into every numeric HLS tag (sequence numbers, durations, byte ranges,
/// bandwidths, a variable's repeat count), the live editor, the check's bitrate audit, the
/// socket's rate, speed, volume, rendition and position, and MPRIS's rate and microseconds.
/// Properties: no trap; what is parsed stays within Reel's bounds (durations ≤ a day, sequences ≤
/// 2^53, lines ≤ 64 KiB after substitution); every rate that reaches the player is in 1/64…64.
enum NumbersFuzz {
    static func run(_ bytes: [UInt8]) {
        let text = String(decoding: bytes.prefix(48), as: UTF8.self).filter { !"\n\r\",\\{}".contains($0) }
        let number = text.isEmpty ? "0" : text
        playlists(number, repeats: Int(bytes.first ?? 0))
        mpds(number, slot: Int(bytes.last ?? 0))
        socket(number)
        if let d = Double(number) { desktop(d) }
    }

    /// Issue 46: the number in one MPD attribute at a time (`slot`), live and static, through
    /// every reader of MPDs. No trap, no loop; a refused MPD stays refused everywhere.
    static func mpds(_ n: String, slot: Int) {
        var values = ["startNumber": "1", "t": "0", "d": "2", "r": "-1", "timescale": "1", "duration": "2", "pto": "0",
                      "depth": "PT30S", "total": "PT10S", "width": "05", "bandwidth": "500000"]
        let keys = values.keys.sorted()
        let key = keys[slot % keys.count]
        values[key] = ["depth", "total"].contains(key) ? "PT\(n)S" : n
        for dynamic in [true, false] {
            for timeline in [true, false] {
                let template = timeline
                    ? "<SegmentTemplate timescale=\"\(values["timescale"]!)\" startNumber=\"\(values["startNumber"]!)\" presentationTimeOffset=\"\(values["pto"]!)\" media=\"$Time%\(values["width"]!)d$-$Number$.m4s\" initialization=\"i.mp4\"><SegmentTimeline><S t=\"\(values["t"]!)\" d=\"\(values["d"]!)\" r=\"\(values["r"]!)\"/><S d=\"\(values["d"]!)\"/></SegmentTimeline></SegmentTemplate>"
                    : "<SegmentTemplate timescale=\"\(values["timescale"]!)\" startNumber=\"\(values["startNumber"]!)\" duration=\"\(values["duration"]!)\" media=\"$Bandwidth%\(values["width"]!)d$-$Number$.m4s\"/>"
                let mpd = """
                <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="\(dynamic ? "dynamic" : "static")" availabilityStartTime="1970-01-01T00:00:00Z" \
                timeShiftBufferDepth="\(values["depth"]!)" mediaPresentationDuration="\(values["total"]!)"><Period start="PT0S"><AdaptationSet contentType="video">\
                <Representation id="v" bandwidth="\(values["bandwidth"]!)" width="640" height="360">\(template)</Representation></AdaptationSet></Period></MPD>
                """
                let base = URL(string: "https://origin.example/m.mpd")!
                _ = DASHInspection.inspect(mpd, uri: base.absoluteString, name: "m.mpd")
                for rep in DASHSegments.list(mpd, base: base) where rep.media.count > 100_001 { fuzzFailure("\(rep.media.count) segments") }
                if let window = DASHLiveWindow.snapshot(mpd, now: Date(timeIntervalSince1970: 1_795_000_000)) {
                    if window.durations.count > DASHLiveWindow.maximumSegments { fuzzFailure("a live window of \(window.durations.count)") }
                    _ = DASHLiveWindow.steer(window, program: nil, now: Date(timeIntervalSince1970: 1_795_000_000))
                }
                let refused = (try? DASHManifestRewriter.check(mpd)) == nil
                let rewritten = try? DASHManifestRewriter.rewrite(mpd, base: base, directory: { _ in "/g/d/0/" }, manifest: { _ in "/g/m/0" },
                                                                 presentationDelay: 10, catchup: (Date(timeIntervalSince1970: 1_794_999_000), Date(timeIntervalSince1970: 1_794_999_100), Date(timeIntervalSince1970: 1_795_000_000)))
                if refused, rewritten != nil { fuzzFailure("the gateway's check refused what its rewrite served: \(key)=\(n)") }
            }
        }
    }

    static func playlists(_ n: String, repeats: Int) {
        let media = """
        #EXTM3U
        #EXT-X-VERSION:8
        #EXT-X-TARGETDURATION:\(n)
        #EXT-X-MEDIA-SEQUENCE:\(n)
        #EXT-X-DISCONTINUITY-SEQUENCE:\(n)
        #EXT-X-PART-INF:PART-TARGET=\(n)
        #EXT-X-DEFINE:NAME="v",VALUE="\(String(repeating: n, count: min(repeats, 64)))"
        #EXT-X-PROGRAM-DATE-TIME:2026-11-26T00:00:00Z
        #EXTINF:\(n),
        #EXT-X-BYTERANGE:\(n)@\(n)
        a.ts
        #EXT-X-PART:DURATION=\(n),URI="p.ts",BYTERANGE="\(n)@\(n)"
        #EXT-X-DISCONTINUITY
        #EXTINF:2,
        #EXT-X-BYTERANGE:\(n)
        a.ts
        #EXTINF:\(n),
        \(String(repeating: "{$v}", count: min(repeats, 40)))/b.ts

        """
        if let result = try? HLSPlaylist.parseReporting(media), case .media(let m) = result.playlist {
            if m.targetDuration > 86_400 || !m.targetDuration.isFinite { fuzzFailure("target duration \(m.targetDuration)") }
            for s in m.segments {
                if !(0...86_400).contains(s.duration) { fuzzFailure("segment duration \(s.duration)") }
                if s.sequence > (1 << 53) + 16 || s.sequence < 0 { fuzzFailure("sequence \(s.sequence)") }
                if s.uri.utf8.count > 64 * 1024 { fuzzFailure("a line of \(s.uri.utf8.count) bytes after substitution") }
            }
            if let p = m.partTargetDuration, !(0...86_400).contains(p) { fuzzFailure("part target \(p)") }
            let segments = m.segments.map { HLSAudit.Segment(uri: $0.uri, duration: $0.duration, bytes: Int(exactly: Double(n) ?? 0) ?? 1, startsWithKeyframe: nil) }
            _ = HLSAudit.audit(m, segments: segments, variant: HLSVariant(uri: "v", bandwidth: Int(n), averageBandwidth: Int(n)), name: "v")
        }
        let start = Date(timeIntervalSince1970: 1_795_550_400)
        for program in [LiveProgram(mode: .restart, start: start), LiveProgram(mode: .catchup, start: start, end: start.addingTimeInterval(10)), nil] {
            _ = LivePlaylistEditor(program: program, steersStart: true).edit(media, now: start.addingTimeInterval(30))
        }
        let master = """
        #EXTM3U
        #EXT-X-STREAM-INF:BANDWIDTH=\(n),AVERAGE-BANDWIDTH=\(n),RESOLUTION=\(n)x\(n),FRAME-RATE=\(n)
        a.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=1000000,AVERAGE-BANDWIDTH=\(n),RESOLUTION=640x360
        b.m3u8

        """
        if let parsed = try? HLSPlaylist.parse(master), case .master(let m) = parsed {
            let renditions = RenditionSelector.renditions(of: m)
            for choice in [QualityChoice.auto, .height(360), .index(0), .maxHeight(400), .maxBitrate(1)] {
                let limits = RenditionSelector.limits(choice, renditions: renditions, cap: Int(n))
                _ = DemuxerBitrateWindow.window(limits, renditions: renditions)
            }
        }
    }

    static func socket(_ n: String) {
        MainActor.assumeIsolated {
            let target = StubTarget()
            let registry = IPCCommandRegistry()
            target.declare(in: registry.properties)
            let dispatcher = IPCDispatcher(target: target, screenshotDirectory: URL(fileURLWithPath: "/nonexistent"), registry: registry)
            for line in ["{\"command\":[\"rate\",\(n)]}", "{\"command\":[\"set_property\",\"speed\",\(n)]}",
                         "{\"command\":[\"set_property\",\"rate\",\(n)]}", "{\"command\":[\"set_property\",\"rendition\",\(n)]}",
                         "{\"command\":[\"set_property\",\"volume\",\(n)]}", "{\"command\":[\"set_property\",\"position\",\(n)]}",
                         "{\"command\":[\"seek\",\(n),\"absolute\"]}", "{\"command\":[\"set_property\",\"sub-scale\",\(n)]}"] {
                dispatcher.handle(line) { _ in }
            }
            for r in target.rates where !BoundedNumber.isPlayableRate(r) { fuzzFailure("rate \(r) reached the player") }
        }
    }

    static func desktop(_ d: Double) {
        if let r = BoundedNumber.clampedRate(d), !BoundedNumber.isPlayableRate(r) { fuzzFailure("MPRIS rate \(d) → \(r)") }
        _ = BoundedNumber.microseconds(d)
        _ = BoundedNumber.nanoseconds(d)
        _ = BoundedNumber.milliseconds(d)
    }
}

@MainActor
private final class StubTarget: PlaybackCommandTarget {
    var rates: [Double] = []
    var snapshot = PlaybackSnapshot(items: [.init(uri: "file:///m/a.mp4", title: "a")], index: 0, position: 4, duration: 10, status: .readyToPlay,
                                    timeControl: .playing, wantsToPlay: true, volume: 0.5, mediaInfo: MediaInfo(width: 640, height: 360, isSeekable: true))
    /// The properties the engine declares for these numbers, with the same kinds (`NumberSpec.rate`, `IPCVolume.range`).
    func declare(in table: PropertyTable) {
        table.declare("stub", [
            .number("speed", .rate, "", aliases: ["rate"], get: { $0.rate }) { self.rates.append($0) },
            .number("volume", NumberSpec(range: IPCVolume.range), "", get: { $0.volume * 100 }) { v in if !v.isFinite { fuzzFailure("volume \(v)") } },
            .number("sub-scale", NumberSpec(range: SubtitleStyle.scaleRange, clampsOnSet: true), "", get: { $0.subtitleLook.scale }) { v in
                if !v.isFinite { fuzzFailure("sub-scale \(v)") }
            },
        ])
    }
    func play() {}
    func pause() {}
    func toggle() {}
    func stop() {}
    func seek(to seconds: Double, mode: SeekMode) { if !seconds.isFinite { fuzzFailure("seek \(seconds)") } }
    func skip(by seconds: Double) {}
    func next() -> Bool { false }
    func previous() -> Bool { false }
    func jump(to index: Int) -> Bool { false }
    func item(_ action: IPCCommand.ItemAction, at index: Int) -> Bool { false }
    func moveItem(from: Int, to: Int) -> Bool { false }
    func removeItem(at index: Int) -> Bool { false }
    func load(_ input: String, options: [String: [String]]) {}
    func append(_ input: String, options: [String: [String]]) {}
    func captureFrame(_ completion: @escaping @MainActor (Result<CapturedFrame, PlaybackError>) -> Void) {}
    func captureWindow(_ completion: @escaping @MainActor (Result<CapturedFrame, PlaybackError>) -> Void) {}
    func quit(status: Int32) {}
}
