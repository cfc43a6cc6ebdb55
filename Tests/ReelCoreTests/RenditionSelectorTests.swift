import ReelCore
import ReelTestSupport
import XCTest

/// The quality choice as tables: parsing, the bitrate window each choice gives, and the
/// sequencer applying it on the fake engine.
final class RenditionSelectorTests: XCTestCase {
    private let r: [HLSVariant] = [
        HLSVariant(uri: "1080.m3u8", bandwidth: 5_000_000, resolution: HLSResolution(width: 1920, height: 1080)),
        HLSVariant(uri: "720.m3u8", bandwidth: 2_000_000, resolution: HLSResolution(width: 1280, height: 720)),
        HLSVariant(uri: "360.m3u8", bandwidth: 600_000, resolution: HLSResolution(width: 640, height: 360)),
    ]

    func testParsing() {
        let rows: [(String, QualityChoice?)] = [("auto", .auto), ("720p", .height(720)), ("1080P", .height(1080)), ("2", .index(2)),
                                                ("max-height=720", .maxHeight(720)), ("max-bitrate=800000", .maxBitrate(800_000)),
                                                ("best", nil), ("p", nil), ("-1", nil), ("max-height=0", nil), ("", nil)]
        for (text, expected) in rows { XCTAssertEqual(QualityChoice(text), expected, text) }
    }

    func testTheWindowEachChoiceGives() {
        typealias L = RenditionSelector.Limits
        let rows: [(String, QualityChoice, Int?, L)] = [
            ("auto", .auto, nil, L()),
            ("auto, metered", .auto, 1, L(maxBitrate: 1)),
            ("720p pinned", .height(720), nil, L(minBitrate: 2_000_000, maxBitrate: 2_000_000, pinned: 1)),
            ("480p: the nearest below", .height(480), nil, L(minBitrate: 600_000, maxBitrate: 600_000, pinned: 2)),
            ("240p: none below, the lowest", .height(240), nil, L(minBitrate: 600_000, maxBitrate: 600_000, pinned: 2)),
            ("index 0", .index(0), nil, L(minBitrate: 5_000_000, maxBitrate: 5_000_000, pinned: 0)),
            ("index out of range: auto", .index(7), nil, L()),
            ("a pin above the metered cap gives way", .height(1080), 1_000_000, L(maxBitrate: 1_000_000)),
            ("a pin below the cap holds", .height(360), 1_000_000, L(minBitrate: 600_000, maxBitrate: 600_000, pinned: 2)),
            ("max-height", .maxHeight(720), nil, L(maxBitrate: 2_000_000)),
            ("max-height below all: the lowest", .maxHeight(100), nil, L(maxBitrate: 600_000)),
            ("max-bitrate and cap: the lower", .maxBitrate(3_000_000), 1_000_000, L(maxBitrate: 1_000_000)),
        ]
        for (name, choice, cap, expected) in rows {
            XCTAssertEqual(RenditionSelector.limits(choice, renditions: r, cap: cap), expected, name)
        }
        XCTAssertEqual(RenditionSelector.limits(.height(720), renditions: [], cap: 1), L(maxBitrate: 1), "renditions not known yet")
    }

    /// The window on hlsdemux2 1.22's scale: AVERAGE-BANDWIDTH replaces BANDWIDTH when a variant
    /// has it (the master: a pin of 360p by BANDWIDTH matched no variant and 720p played).
    func testTheDemuxersWindowIsOnItsOwnScale() {
        typealias L = RenditionSelector.Limits
        let spec = [HLSVariant(uri: "360p.m3u8", bandwidth: 1_249_072, averageBandwidth: 1_057_312, resolution: HLSResolution(width: 640, height: 360)),
                    HLSVariant(uri: "720p.m3u8", bandwidth: 3_374_976, averageBandwidth: 2_837_596, resolution: HLSResolution(width: 1280, height: 720))]
        let rows: [(String, [HLSVariant], L, Int?, Int?)] = [
            ("a pin: its AVERAGE-BANDWIDTH", spec, RenditionSelector.limits(.height(360), renditions: spec, cap: nil), 1_057_312, 1_057_312),
            ("the top pin", spec, RenditionSelector.limits(.index(1), renditions: spec, cap: nil), 2_837_596, 2_837_596),
            ("no AVERAGE-BANDWIDTH: BANDWIDTH", r, RenditionSelector.limits(.height(720), renditions: r, cap: nil), 2_000_000, 2_000_000),
            ("a cap by BANDWIDTH: 3 M allows 360p only (720p peaks at 3.37 M)", spec, L(maxBitrate: 3_000_000), nil, 1_057_312),
            ("a cap above all: the top's average", spec, L(maxBitrate: 9_000_000), nil, 2_837_596),
            ("a cap below all (metered, 1 bit/s): the lowest", spec, L(maxBitrate: 1), nil, 1_057_312),
            ("no window", spec, L(), nil, nil),
            ("renditions unknown: the cap as it is", [], L(maxBitrate: 1), nil, 1),
        ]
        for (name, variants, limits, floor, cap) in rows {
            let w = DemuxerBitrateWindow.window(limits, renditions: variants)
            XCTAssertEqual(w.floor, floor, name)
            XCTAssertEqual(w.cap, cap, name)
        }
    }

    func testTheSequencerGivesTheEngineTheWindowAndSaysSo() {
        let r = self.r
        onMain {
            let engine = FakeEngine()
            let s = QueueSequencer(engine: engine, queue: PlayQueue([QueueItem(uri: "https://cdn.example.com/master.m3u8"),
                                                                     QueueItem(uri: "https://cdn.example.com/b.m3u8")]), clock: ManualClock())
            var events: [PlayerEvent] = []
            s.addObserver { e, _ in events.append(e) }
            s.setQuality(.height(720))
            s.play()
            XCTAssertNil(engine.bitrateFloor, "renditions not known yet")
            s.renditionsFound(r, for: s.queue.items[0].id)
            XCTAssertEqual([engine.bitrateFloor, engine.bitrateCap], [2_000_000, 2_000_000])
            s.setQuality(.auto)
            XCTAssertEqual([engine.bitrateFloor, engine.bitrateCap], [5_000_000, 5_000_000], "auto: Reel's rule pins the first listed")
            s.setQuality(.index(2))
            s.networkChanged(NetworkState(available: true, metered: true, connectivity: .full))
            XCTAssertEqual([engine.bitrateFloor, engine.bitrateCap], [nil, 600_000],
                           "metered: the cap wins over a pin above it (on the demuxer's scale: the lowest rendition's bandwidth)")
            let renditionEvents = events.compactMap { e -> String? in
                if case .rendition(let i, let h, _, let mode, let reason) = e { return "\(i.map(String.init) ?? "-") \(h.map(String.init) ?? "-") \(mode) \(reason)" }
                return nil
            }
            XCTAssertEqual(renditionEvents, ["1 720 manual start", "0 1080 auto manual", "2 360 manual manual", "- - manual policy"])
            s.networkChanged(.assumed)
            s.setQuality(.auto)
            s.networkChanged(NetworkState(available: true, metered: true, connectivity: .full))
            XCTAssertEqual([engine.bitrateFloor, engine.bitrateCap], [600_000, 600_000], "auto, metered: the lowest rendition")
            s.networkChanged(.assumed)
            s.next()
            XCTAssertEqual([engine.bitrateFloor, engine.bitrateCap], [nil, nil], "the next item's renditions are not known yet: no pin carried over")
        }
    }

    /// Auto mode on the fake engine: the start comes from the remembered throughput, the rule
    /// sees the demuxer at every progress event, pins what it decides and says why.
    func testAutoFollowsTheRuleOnTheDemuxersBufferAndRemembersTheThroughput() {
        let r = self.r
        onMain {
            let engine = FakeEngine()
            let clock = ManualClock()
            let memory = MemoryStub(8_000_000)
            let s = QueueSequencer(engine: engine, queue: PlayQueue([QueueItem(uri: "https://cdn.example.com/master.m3u8")]), clock: clock)
            s.throughputMemory = memory
            var events: [String] = []
            s.addObserver { e, _ in
                if case .rendition(let i, let h, _, let mode, let reason) = e { events.append("\(i.map(String.init) ?? "-") \(h.map(String.init) ?? "-") \(mode) \(reason)") }
            }
            s.play()
            engine.becomeReady(duration: 60)
            s.renditionsFound(r, for: s.queue.items[0].id)
            XCTAssertEqual(events, ["0 1080 auto start"], "8 Mbit/s remembered: 1080p from the start")
            XCTAssertEqual([engine.bitrateFloor, engine.bitrateCap], [5_000_000, 5_000_000])
            // 12 s buffered, then the buffer drains at 0.8 s/s: a stall within 15 s is predicted.
            var t = 0.0, level = 12.0
            while t < 4 {
                clock.advance(by: 0.25)
                t += 0.25
                level -= 0.2
                engine.progress(to: t, stats: AdaptiveStats(buffered: level, throughput: 8_000_000, playing: true))
            }
            XCTAssertEqual(events.last, "2 360 auto stall-predicted", "\(events)")
            XCTAssertEqual([engine.bitrateFloor, engine.bitrateCap], [600_000, 600_000])
            XCTAssertEqual(memory.remembered.first, 8_000_000, "the demuxer's throughput is kept for the next run")
            // A manual pin stops the rule: nothing it sees changes the rendition.
            s.setQuality(.height(720))
            let before = events.count
            for _ in 0..<40 {
                clock.advance(by: 0.25)
                t += 0.25
                engine.progress(to: t, stats: AdaptiveStats(buffered: 2, throughput: 500_000, playing: true))
            }
            XCTAssertEqual(events.count, before, "\(events)")
            XCTAssertEqual(events.last, "1 720 manual manual")
            XCTAssertEqual([engine.bitrateFloor, engine.bitrateCap], [2_000_000, 2_000_000])
        }
    }

    /// Issue 27's fresh start: nothing remembered, the first listed is 360p: the demuxer buffers
    /// at most the probe's 4 s until the rule's first decision, then its own target again at the
    /// top (below it, `belowTopBuffer`); a pin or the top rendition at the start never lowers it.
    func testAFreshStartLowersTheDemuxersBufferingUntilTheFirstDecision() {
        let lowFirst = Array(r.reversed())
        onMain {
            let engine = FakeEngine()
            let clock = ManualClock()
            let s = QueueSequencer(engine: engine, queue: PlayQueue([QueueItem(uri: "https://cdn.example.com/master.m3u8"),
                                                                     QueueItem(uri: "https://cdn.example.com/b.m3u8")]), clock: clock)
            s.throughputMemory = MemoryStub(nil)
            var events: [String] = []
            s.addObserver { e, _ in
                if case .rendition(let i, let h, _, _, let reason) = e { events.append("\(i.map(String.init) ?? "-") \(h.map(String.init) ?? "-") \(reason)") }
            }
            s.play()
            engine.becomeReady(duration: 60)
            XCTAssertNil(engine.bufferingLimit)
            s.renditionsFound(lowFirst, for: s.queue.items[0].id)
            XCTAssertEqual(events, ["0 360 start"])
            XCTAssertEqual(engine.bufferingLimit, 4, "the probe: 4 s at most until the first decision")
            // Fragments at 8 Mbit/s; the demuxer holds at about 6 s.
            var t = 0.0
            while t < 3, events.count == 1 {
                clock.advance(by: 0.25)
                t += 0.25
                engine.progress(to: t, stats: AdaptiveStats(buffered: min(6, t * 10), throughput: 8_000_000 + Int(t * 4) * 1000, playing: true))
            }
            XCTAssertEqual(events.last, "2 1080 auto-up", "up within seconds on 6 s buffered: \(events)")
            XCTAssertLessThan(t, 3)
            XCTAssertNil(engine.bufferingLimit, "after the first decision, the demuxer's own target")
            // A manual choice: no probe; back to auto mid-item: no probe either (its buffer is full).
            s.setQuality(.height(360))
            XCTAssertNil(engine.bufferingLimit)
            s.setQuality(.auto)
            XCTAssertNil(engine.bufferingLimit)
            // The next item, from its own start.
            s.next()
            s.renditionsFound(lowFirst, for: s.queue.items[1].id)
            XCTAssertEqual(engine.bufferingLimit, 4)
            s.setQuality(.height(720))
            XCTAssertNil(engine.bufferingLimit, "a pin: the demuxer's own target")
        }
    }
}

@MainActor
private final class MemoryStub: ThroughputMemory {
    let stored: Int?
    var remembered: [Int] = []
    init(_ stored: Int?) { self.stored = stored }
    func recall() -> Int? { stored }
    func remember(_ bitsPerSecond: Int) { remembered.append(bitsPerSecond) }
}
