import Foundation
@testable import ReelCore
import ReelTestSupport
import XCTest

/// `QualityController` alone, a peer of the sequencer: on `FakeEngine` and a `ManualClock`, the
/// choice becomes the engine's bitrate window, the metered cap bounds it, the rule steps down when
/// the buffer drains, and the rendition events say it.
final class QualityControllerTests: XCTestCase {
    static let renditions = [
        HLSVariant(uri: "360/index.m3u8", bandwidth: 800_000, resolution: HLSResolution(width: 640, height: 360)),
        HLSVariant(uri: "720/index.m3u8", bandwidth: 2_500_000, resolution: HLSResolution(width: 1280, height: 720)),
        HLSVariant(uri: "1080/index.m3u8", bandwidth: 5_000_000, resolution: HLSResolution(width: 1920, height: 1080)),
    ]

    @MainActor
    private final class Rig {
        let engine = FakeEngine()
        let clock = ManualClock()
        let item = QueueItem(uri: "https://cdn.example/master.m3u8")
        var cap: Int?
        var said: [PlayerEvent] = []
        lazy var controller = QualityController(engine: engine, now: { [unowned self] in
            QualityController.Now(item: self.item, reportsFetches: false, eventsAreCurrent: true, cap: self.cap, time: self.clock.now)
        }, say: { [unowned self] in self.said.append($0) })

        var renditionEvents: [(index: Int?, mode: String, reason: String)] {
            said.compactMap { if case .rendition(let i, _, _, let mode, let reason) = $0 { (i, mode, reason) } else { nil } }
        }
    }

    func testAChoiceIsTheEnginesWindowAndTheCapBoundsIt() {
        onMain {
            let rig = Rig()
            rig.controller.renditionsFound(Self.renditions, for: rig.item.id)
            rig.controller.setChoice(.height(720))
            XCTAssertEqual(rig.engine.bitrateCap, 2_500_000)
            XCTAssertEqual(rig.engine.bitrateFloor, 2_500_000, "pinned: floor and cap at its bandwidth")
            XCTAssertEqual(rig.renditionEvents.last?.index, 1)
            XCTAssertEqual(rig.renditionEvents.last?.mode, "manual")
            rig.controller.setChoice(.maxBitrate(1_000_000))
            XCTAssertEqual(rig.controller.playingRendition, 0, "auto under 1 Mbit/s: the 360p")
            XCTAssertEqual(rig.renditionEvents.last?.mode, "auto")
            rig.controller.setChoice(.auto)
            rig.cap = 900_000  // a metered connection
            rig.controller.apply(reason: "policy")
            XCTAssertLessThanOrEqual(rig.engine.bitrateCap ?? .max, 900_000, "the metered cap holds in auto")
            XCTAssertEqual(rig.controller.playingRendition, 0)
        }
    }

    func testTheRuleStepsDownBeforeTheBufferRunsDry() {
        onMain {
            let rig = Rig()
            rig.controller.renditionsFound(Self.renditions, for: rig.item.id)
            rig.controller.throughputMemory = nil
            rig.controller.apply(reason: "start")
            var index = rig.controller.playingRendition ?? 0
            // A good network first: the rule climbs to the top.
            // (Each fragment's measurement differs a little: the rule counts new measurements.)
            for i in 0..<40 {
                rig.clock.advance(by: 1)
                rig.engine.adaptiveStats = AdaptiveStats(buffered: 20, throughput: 20_000_000 + i * 1_000, playing: true)
                rig.controller.progress()
            }
            index = rig.controller.playingRendition ?? 0
            XCTAssertEqual(index, 2, "the top rendition on a fast network: \(rig.renditionEvents)")
            // Then the throughput falls and the buffer drains a second a second.
            var buffered = 20.0
            var steppedDownAt: Double?
            for i in 0..<20 {
                rig.clock.advance(by: 1)
                buffered -= 1
                rig.engine.adaptiveStats = AdaptiveStats(buffered: buffered, throughput: 1_000_000 + i * 1_000, playing: true)
                rig.controller.progress()
                if steppedDownAt == nil, (rig.controller.playingRendition ?? 2) < 2 { steppedDownAt = buffered }
            }
            let left = try? XCTUnwrap(steppedDownAt, "it stepped down: \(rig.renditionEvents)")
            XCTAssertGreaterThan(left ?? 0, 2, "with seconds of buffer left, not at a stall")
            XCTAssertTrue(rig.renditionEvents.contains { $0.mode == "auto" && $0.reason != "start" })
        }
    }
}

/// `NetworkGate` alone: the rule's verdicts on the network as the desktop sees it, the cap said
/// only when it changes, and generations that void an old bound.
final class NetworkGateTests: XCTestCase {
    func testVerdictsCapsAndGenerations() {
        var gate = NetworkGate()
        let item = QueueItem(uri: "https://cdn.example/a.mp4"), local = QueueItem(uri: "file:///m/a.mp4")
        gate.network = NetworkState(available: true, metered: false, connectivity: .full)
        XCTAssertEqual(gate.verdict(for: item), gate.rule.verdict(for: item.uri, network: gate.network, playAnyway: false))
        gate.rule = NetworkRule(policy: .block)
        gate.network = NetworkState(available: true, metered: true, connectivity: .full)
        let blocked = gate.verdict(for: item)
        XCTAssertNotEqual(blocked, gate.verdict(for: local), "a local file is never the network's to refuse")
        gate.playAnyway.insert(item.id)
        XCTAssertNotEqual(gate.verdict(for: item), blocked, "Play anyway lifts the block for that item")

        gate.rule = NetworkRule(policy: .cap, meteredMaxBitrate: 1_500_000)
        XCTAssertEqual(gate.capToReport(), Int??.some(1_500_000))
        XCTAssertTrue(gate.capToReport() == nil, "said once")
        gate.network = NetworkState(available: true, metered: false, connectivity: .full)
        XCTAssertEqual(gate.capToReport(), Int??.some(nil), "lifted: said")

        gate.currentWasReady = true
        gate.failedWhileOffline = true
        gate.itemLoaded()
        XCTAssertFalse(gate.currentWasReady)
        XCTAssertFalse(gate.failedWhileOffline)
        let first = gate.newGeneration()
        XCTAssertEqual(gate.newGeneration(), first + 1)
    }
}
