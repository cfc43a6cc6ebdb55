import Foundation
import ReelCore
import ReelEngine
import ReelGLib
import ReelTestSupport
import XCTest

/// Items with identity through the engine (issue 11): `load`/`prepareNext(item:)` take a
/// `PlaybackItem`, and every event says which item it is about, across a gapless switch. Real
/// pipelines on the generated clips.
final class ItemIdentityTests: XCTestCase {
    func testEveryEventCarriesItsItemAcrossAGaplessSwitch() throws {
        TestMedia.ensureGenerated()
        try onMain {
            let player = try Player(configuration: PlayerConfiguration(audioSink: "fakesink sync=true", videoSink: "fakesink sync=true",
                                                                       progressInterval: 0.1, endAction: .pause))
            defer { player.shutdown() }
            let a = PlaybackItem(uri: TestMedia.url("gapless-00.mp4").absoluteString, title: "A")
            let b = PlaybackItem(uri: TestMedia.url("gapless-01.mp4").absoluteString, title: "B")
            var seen: [(PlayerEvent, PlaybackItem.ID?)] = []
            player.addItemObserver { event, item in
                let id = item?.id
                seen.append((event, id))
                if case .itemChanged = event, id == a.id { player.prepareNext(item: b) }
            }
            player.load(a)
            player.play()
            let ended = GLibMainLoop.run(until: { seen.contains { $0.1 == b.id && $0.0 == .playedToEnd } }, timeout: 20)
            XCTAssertTrue(ended, "\(seen.map { "\($0.0) \($0.1 == a.id ? "A" : $0.1 == b.id ? "B" : "-")" })")
            XCTAssertEqual(player.currentItem, b, "the switch made B current")
            let changes = seen.filter { if case .itemChanged = $0.0 { true } else { false } }
            XCTAssertEqual(changes.map { $0.1 }, [a.id, b.id], "one change per item, each carrying its own id")
            // Everything up to A's end is A's; from B's change on, B's.
            let switchIndex = try XCTUnwrap(seen.firstIndex { if case .itemChanged = $0.0 { $0.1 == b.id } else { false } })
            XCTAssertTrue(seen[..<switchIndex].allSatisfy { $0.1 == a.id }, "before the switch")
            XCTAssertTrue(seen[switchIndex...].allSatisfy { $0.1 == b.id }, "after the switch")
            XCTAssertEqual(seen[switchIndex - 1].0, .playedToEnd, "A's end is A's, just before B's change")
        }
    }

    func testAnItemIsTheSameOnlyWithTheSameIDAndURL() {
        let id = UUID()
        let streamed = PlaybackItem(id: id, uri: "https://example.com/ep1.mp3")
        let downloaded = PlaybackItem(id: id, uri: "file:///home/u/ep1.mp3")
        XCTAssertNotEqual(streamed, downloaded, "the episode now downloaded is another item (PRXPlayer's rule)")
        XCTAssertEqual(streamed, PlaybackItem(id: id, uri: "https://example.com/ep1.mp3", title: "renamed"))
        XCTAssertNotEqual(streamed, PlaybackItem(uri: "https://example.com/ep1.mp3"), "another id")
    }
}
