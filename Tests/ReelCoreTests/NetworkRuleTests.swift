import ReelCore
import ReelTestSupport
import XCTest

/// The network rule as a table: what each kind of item does on each network under each policy.
final class NetworkRuleTests: XCTestCase {
    private let online = NetworkState(available: true, metered: false, connectivity: .full)
    private let metered = NetworkState(available: true, metered: true, connectivity: .full)
    private let offline = NetworkState(available: false, metered: false, connectivity: .local)

    func testVerdicts() {
        let remote = "https://cdn.example.com/a.m3u8", local = "file:///media/a.mp4", loop = "http://127.0.0.1:8080/a.m3u8"
        let rows: [(String, MeteredPolicy, String, NetworkState, Bool, String)] = [
            ("online", .block, remote, online, false, "play"),
            ("offline: waits", .allow, remote, offline, false, "wait"),
            ("offline, local file", .block, local, offline, false, "play"),
            ("offline, loopback server", .block, loop, offline, false, "play"),
            ("metered, allow", .allow, remote, metered, false, "play"),
            ("metered, cap", .cap, remote, metered, false, "play"),
            ("metered, block", .block, remote, metered, false, "refuse"),
            ("metered, block, play anyway", .block, remote, metered, true, "play"),
            ("metered, block, local", .block, local, metered, false, "play"),
            ("offline beats block", .block, remote, NetworkState(available: false, metered: true, connectivity: .local), false, "wait"),
        ]
        for (name, policy, uri, network, anyway, expected) in rows {
            let verdict = NetworkRule(policy: policy).verdict(for: uri, network: network, playAnyway: anyway)
            let got = switch verdict {
            case .play: "play"
            case .wait: "wait"
            case .refuse(let e): e.code == "prevented-by-policy" ? "refuse" : "refuse?"
            }
            XCTAssertEqual(got, expected, name)
        }
        XCTAssertEqual(NetworkRule(policy: .block, loopbackIsRemote: true).verdict(for: loop, network: offline), .wait, "loopback as remote (tests)")
    }

    func testTheCapWhileMetered() {
        XCTAssertEqual(NetworkRule(policy: .cap).bitrateCap(on: metered), NetworkRule.lowestRendition)
        XCTAssertEqual(NetworkRule(policy: .cap, meteredMaxBitrate: 800_000).bitrateCap(on: metered), 800_000)
        XCTAssertNil(NetworkRule(policy: .cap).bitrateCap(on: online))
        XCTAssertNil(NetworkRule(policy: .allow).bitrateCap(on: metered))
        XCTAssertNil(NetworkRule(policy: .block).bitrateCap(on: metered), "block refuses; it does not cap")
    }

    func testLoopbackHosts() {
        for uri in ["http://127.0.0.1/x", "http://127.1.2.3:80/x", "http://localhost:8000/x", "http://[::1]:8000/x", "https://a.localhost/x"] {
            XCTAssertTrue(NetworkRule.isLoopback(uri), uri)
        }
        for uri in ["http://128.0.0.1/x", "http://127.0.0.1.example.com/x", "https://cdn.example.com/x", "file:///127.0.0.1", "http://10.0.0.1/x"] {
            XCTAssertFalse(NetworkRule.isLoopback(uri), uri)
        }
    }
}

/// The queue's use of the network rule, on the fake engine with a manual clock.
final class QueueSequencerNetworkTests: XCTestCase {
    private static let remote = ["https://cdn.example.com/a.mp4", "https://cdn.example.com/b.mp4"]
    private static let offline = NetworkState(available: false, metered: false, connectivity: .local)
    private static let metered = NetworkState(available: true, metered: true, connectivity: .full)

    @MainActor
    private static func make(_ uris: [String] = remote, policy: MeteredPolicy = .cap) -> (QueueSequencer, FakeEngine, ManualClock, () -> [PlayerEvent]) {
        let engine = FakeEngine(), clock = ManualClock()
        let s = QueueSequencer(engine: engine, queue: PlayQueue(uris.map { QueueItem(uri: $0) }), clock: clock)
        s.networkRule = NetworkRule(policy: policy)
        s.offlineWait = 30
        var events: [PlayerEvent] = []
        s.addObserver { event, _ in events.append(event) }
        return (s, engine, clock, { events })
    }

    func testBlockRefusesANetworkItemOnAMeteredConnectionAndPlayAnywayPlaysIt() {
        onMain {
            let (s, engine, clock, events) = Self.make(Self.remote + ["file:///media/c.mp4"], policy: .block)
            s.networkChanged(Self.metered)
            s.play()
            XCTAssertEqual(engine.loads.map(\.uri), ["file:///media/c.mp4"], "the network items were not even loaded; the local file plays")
            let errors = events().compactMap { if case .error(let e) = $0 { e.code } else { nil } }
            XCTAssertEqual(errors, ["prevented-by-policy", "prevented-by-policy"])
            XCTAssertFalse(events().contains { if case .retrying = $0 { true } else { false } }, "never retried")
            XCTAssertEqual(clock.pendingDelays, [])
            XCTAssertEqual(s.failedCount, 2)
            XCTAssertEqual(s.lastRefusedID, s.queue.items[1].id)
            XCTAssertTrue(s.playAnyway())
            XCTAssertEqual(engine.loads.last?.uri, Self.remote[1], "Play anyway plays the last refused item")
        }
    }

    func testCapFollowsTheMeteredState() {
        onMain {
            let (s, engine, _, events) = Self.make()
            s.play()
            XCTAssertNil(engine.bitrateCap)
            s.networkChanged(Self.metered)
            XCTAssertEqual(engine.bitrateCap, NetworkRule.lowestRendition)
            s.networkChanged(.assumed)
            XCTAssertNil(engine.bitrateCap)
            let caps: [Int?] = events().compactMap { event -> Int?? in
                if case .bitrateCap(let b, _) = event { return .some(b) }
                return .none
            }
            XCTAssertEqual(caps, [NetworkRule.lowestRendition, nil])
            XCTAssertEqual(events().filter { if case .network = $0 { true } else { false } }.count, 2)
        }
    }

    func testAPlayingItemWaitsForTheNetworkAsLongAsItTakesAndFailuresMeanwhileAreNotItsOwn() {
        onMain {
            let (s, engine, clock, events) = Self.make()
            s.play()
            engine.becomeReady()
            engine.position = 12
            s.networkChanged(Self.offline)
            XCTAssertTrue(engine.isWaitingForNetwork, "held, not failed")
            clock.advance(by: 300)
            XCTAssertTrue(engine.isWaitingForNetwork, "a playing item is not bounded")
            engine.fail(PlaybackError(kind: .network, message: "reset"))
            XCTAssertFalse(events().contains { if case .error = $0 { true } else { false } }, "a failure while offline is not the item's")
            XCTAssertEqual(engine.loads.count, 1)
            s.networkChanged(.assumed)
            XCTAssertFalse(engine.isWaitingForNetwork)
            XCTAssertEqual(engine.loads.count, 2, "loaded again when the network returned")
            XCTAssertGreaterThan(engine.loads[1].attempt, 0, "the same item, not a new one")
            engine.becomeReady()
            XCTAssertEqual(engine.seeks, [12], "where it had got to")
            XCTAssertEqual(s.failedCount, 0)
            XCTAssertEqual(events().filter { if case .itemChanged = $0 { true } else { false } }.count, 1)
        }
    }

    func testAnItemStartedOfflineWaitsThenFailsAndTheQueueGoesOn() {
        onMain {
            let (s, engine, clock, events) = Self.make()
            s.networkChanged(Self.offline)
            s.play()
            XCTAssertTrue(engine.isWaitingForNetwork)
            XCTAssertEqual(engine.loads.count, 1, "loaded, but held")
            clock.advance(by: 29)
            XCTAssertFalse(events().contains { if case .error = $0 { true } else { false } })
            clock.advance(by: 1)
            let errors = events().compactMap { if case .error(let e) = $0 { e.code } else { nil } }
            XCTAssertEqual(errors, ["network"])
            XCTAssertEqual(engine.loads.map(\.uri), Self.remote, "the queue went on (and the next item waits in its turn)")
            XCTAssertTrue(engine.isWaitingForNetwork)
            s.networkChanged(.assumed)
            XCTAssertFalse(engine.isWaitingForNetwork, "it plays once the network is back")
        }
    }

    func testLocalItemsNeverWait() {
        onMain {
            let (s, engine, _, _) = Self.make(["file:///media/a.mp4"])
            s.networkChanged(Self.offline)
            s.play()
            XCTAssertFalse(engine.isWaitingForNetwork)
        }
    }
}

extension QueueSequencerNetworkTests {
    func testANextItemTheRuleHoldsBackIsNotPreparedForAGaplessSwitch() {
        onMain {
            let (s, engine, _, _) = Self.make(["https://cdn.example.com/a.mp4", "https://cdn.example.com/b.mp4"], policy: .block)
            s.play()
            engine.becomeReady()
            XCTAssertEqual(engine.nextItem?.uri, "https://cdn.example.com/b.mp4", "unmetered: prepared")
            s.networkChanged(Self.metered)
            XCTAssertNil(engine.nextItem, "metered + block: withdrawn, so it is judged when it would start")
            s.networkChanged(.assumed)
            XCTAssertEqual(engine.nextItem?.uri, "https://cdn.example.com/b.mp4")
            s.networkChanged(Self.offline)
            XCTAssertNil(engine.nextItem, "offline: not switched to")
        }
    }
}
