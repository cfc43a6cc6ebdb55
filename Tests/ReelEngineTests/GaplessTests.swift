import Foundation
import ReelCore
import ReelEngine
import ReelTestSupport
import XCTest
import ReelGLib

/// Gapless transitions through playbin3's about-to-finish (`Player.prepareNext`), and a failed
/// item in the middle of a queue being skipped with its error reported. Real pipelines on the
/// generated 1 s clips, synchronised fakesinks (so that playback takes real time).
final class GaplessTests: XCTestCase {
    private struct Record {
        var time: Double
        var event: PlayerEvent
    }

    @MainActor
    private static func makePlayer() throws -> Player {
        try Player(configuration: PlayerConfiguration(audioSink: "fakesink sync=true", videoSink: "fakesink sync=true",
                                                      progressInterval: 0.1, endAction: .pause))
    }

    /// Drives a player through `uris` the way a queue does: the first is loaded, each next one is
    /// prepared for a gapless switch as soon as the previous switch was taken, and an item that
    /// fails is skipped by loading the one after it.
    @MainActor
    private static func run(_ uris: [String], timeout: Double) throws -> (records: [Record], loads: Int, done: Bool) {
        let player = try makePlayer()
        defer { player.shutdown() }
        let start = Date()
        var records: [Record] = []
        var current = 0      // index of the item whose events arrive now
        var preparedUpTo = 0 // highest index handed to prepareNext
        var loads = 0
        var done = false
        func prepare(after index: Int) {
            if index + 1 < uris.count {
                player.prepareNext(uris[index + 1])
                preparedUpTo = index + 1
            } else {
                player.prepareNext(nil)
            }
        }
        func finish() { done = true }
        player.addObserver { event in
            records.append(Record(time: Date().timeIntervalSince(start), event: event))
            switch event {
            case .itemChanged(_, let uri, _):
                if let i = uris.firstIndex(of: uri), i >= current { current = i }
                prepare(after: current)
            case .playedToEnd where player.isAtEnd:
                // An end at EOS (no gapless switch was taken): load the next item.
                if current + 1 < uris.count {
                    loads += 1
                    player.load(uris[current + 1])
                } else {
                    finish()
                }
            case .error:
                if current + 1 < uris.count {
                    loads += 1
                    player.load(uris[current + 1])
                    player.play()
                } else {
                    finish()
                }
            default:
                break
            }
        }
        loads += 1
        player.load(uris[0])
        player.play()
        let ok = GLibMainLoop.run(until: { done }, timeout: timeout)
        _ = preparedUpTo
        return (records, loads, ok)
    }

    private static func uri(_ name: String) -> String { TestMedia.url(name).absoluteString }

    private static func itemChanges(_ records: [Record]) -> [(time: Double, uri: String)] {
        records.compactMap { if case .itemChanged(_, let uri, _) = $0.event { ($0.time, uri) } else { nil } }
    }

    /// The last `tracks` event of each item, in the order the items became current.
    private static func tracksReports(_ records: [Record]) -> [(tracks: [MediaTrack], selected: [String])?] {
        var reports: [(tracks: [MediaTrack], selected: [String])?] = []
        for r in records {
            switch r.event {
            case .itemChanged: reports.append(nil)
            case .tracks(let tracks, let selected, _) where !reports.isEmpty: reports[reports.count - 1] = (tracks, selected)
            default: break
            }
        }
        return reports
    }

    // XCTest on Linux cannot call @MainActor test methods (a cast failure at discovery): the
    // tests enter the main actor themselves (XCTest runs them on the main thread).
    func testGaplessAcrossTwelveClips() throws {
        try MainActor.assumeIsolated { try Self.gaplessAcrossTwelveClips() }
    }

    @MainActor
    private static func gaplessAcrossTwelveClips() throws {
        let uris = (0..<12).map { uri(String(format: "gapless-%02d.mp4", $0)) }
        let (records, loads, done) = try run(uris, timeout: 60)
        XCTAssertTrue(done, "the queue reached its end")
        let changes = itemChanges(records)
        XCTAssertEqual(changes.map(\.uri), uris, "every item became current, in order")
        XCTAssertEqual(loads, 1, "every transition was a gapless switch, none a reload at EOS")
        XCTAssertEqual(records.filter { $0.event == .playedToEnd }.count, uris.count)
        XCTAssertFalse(records.contains { if case .error = $0.event { true } else { false } })
        // Once playing, time control never leaves .playing until the very end: no re-preroll,
        // no waiting between items.
        let controls = records.compactMap { if case .timeControl(let t) = $0.event { t } else { nil } }
        let firstPlaying = controls.firstIndex(of: .playing)
        XCTAssertNotNil(firstPlaying)
        if let firstPlaying { XCTAssertTrue(controls[(firstPlaying + 1)...].allSatisfy { $0 == .paused }, "\(controls)") }
        // Each item reports its own duration (about 1 s) after its switch.
        let durations = records.compactMap { if case .duration(let d) = $0.event { d } else { nil } }
        XCTAssertGreaterThanOrEqual(durations.count, uris.count)
        for d in durations { XCTAssertEqual(d, 1, accuracy: 0.1) }
        // Each item's tracks say what plays: its video and its audio selected, after a gapless
        // switch too (playbin3 1.22 posts no STREAMS_SELECTED for the group it switches to).
        let tracksByItem = tracksReports(records)
        XCTAssertEqual(tracksByItem.count, uris.count, "one item per change")
        for (index, report) in tracksByItem.enumerated() {
            guard let report else { XCTFail("item \(index): no tracks event"); continue }
            let playing = report.tracks.filter { $0.kind == .video || $0.kind == .audio }.map(\.id)
            XCTAssertEqual(playing.count, 2, "item \(index): a video and an audio track")
            XCTAssertEqual(Set(report.selected), Set(playing), "item \(index): \(report.selected)")
        }
        // Wall time per transition, for the record (benchmarks compare it with mpv/gst-play).
        if let first = changes.first, let end = records.last(where: { $0.event == .playedToEnd }) {
            let extra = (end.time - first.time - Double(uris.count)) / Double(uris.count - 1)
            print("gapless: \(uris.count) clips, extra wall time per transition ≈ \(String(format: "%.1f", extra * 1000)) ms")
        }
    }

    func testASwitchToAMissingNetworkItemNeverStallsAtTheEnd() throws {
        try MainActor.assumeIsolated { try Self.switchToAMissingNetworkItemNeverStallsAtTheEnd() }
    }

    /// playbin3 1.22 now and then stops at the end of an item, with no EOS and no error, when the
    /// URI taken at about-to-finish answers 404 (about one run in twenty here). The engine's
    /// end-stall watchdog ends the item and the next load opens afresh: every run must reach
    /// the queue's end with the 404 reported on its own item. Ten runs, so that the stall shows.
    @MainActor
    private static func switchToAMissingNetworkItemNeverStallsAtTheEnd() throws {
        let server = try HTTPFixtureServer()
        defer { server.shutdown() }
        server.serve("/six.mp4", .file(TestMedia.url("gapless-06.mp4"), contentType: "video/mp4"))
        server.serve("/eight.mp4", .file(TestMedia.url("gapless-08.mp4"), contentType: "video/mp4"))
        let uris = [server.url("/six.mp4").absoluteString, server.url("/missing.mp4").absoluteString, server.url("/eight.mp4").absoluteString]
        for attempt in 1...10 {
            let (records, _, done) = try run(uris, timeout: 20)
            if !done { StackDump.log(getpid(), reason: "run \(attempt) stalled") }
            XCTAssertTrue(done, "run \(attempt): the queue reached its end (no stall at the end of the first item): "
                          + records.map { String(format: "%.2f ", $0.time) + String(describing: $0.event).prefix(90) }.joined(separator: " | "))
            XCTAssertEqual(itemChanges(records).map(\.uri), uris, "run \(attempt)")
            let errors = records.compactMap { if case .error(let e) = $0.event { e } else { nil } }
            XCTAssertEqual(errors.map(\.kind), [.notFound], "run \(attempt)")
            XCTAssertEqual(errors.first?.httpStatus, 404, "run \(attempt)")
            XCTAssertEqual(records.filter { $0.event == .playedToEnd }.count, 2, "run \(attempt): both clips ended")
            if !done { break }
        }
    }

    func testFailedItemInTheMiddleIsSkippedWithItsError() throws {
        try MainActor.assumeIsolated { try Self.failedItemInTheMiddleIsSkippedWithItsError() }
    }

    @MainActor
    private static func failedItemInTheMiddleIsSkippedWithItsError() throws {
        let missing = TestMedia.directory.appendingPathComponent("no-such-clip.mp4").absoluteString
        let uris = [uri("gapless-00.mp4"), uri("gapless-01.mp4"), missing, uri("gapless-03.mp4"), uri("notmedia.mp4"), uri("gapless-05.mp4")]
        let (records, _, done) = try run(uris, timeout: 60)
        XCTAssertTrue(done)
        XCTAssertEqual(itemChanges(records).map(\.uri), uris, "the failed items became current, and the queue went on")
        // Errors, in order, each right after its own item change, naming the right item.
        var errors: [(item: String, error: PlaybackError)] = []
        var currentURI = ""
        for r in records {
            if case .itemChanged(_, let uri, _) = r.event { currentURI = uri }
            if case .error(let e) = r.event { errors.append((currentURI, e)) }
        }
        XCTAssertEqual(errors.map(\.item), [missing, uri("notmedia.mp4")])
        XCTAssertEqual(errors.first?.error.kind, .notFound)
        XCTAssertEqual(errors.last?.error.kind, .unsupportedFormat, errors.last?.error.message ?? "")
        XCTAssertEqual(errors.first?.error.uri, missing)
        // The good items all played to their end.
        var endedItems: [String] = []
        currentURI = ""
        for r in records {
            if case .itemChanged(_, let uri, _) = r.event { currentURI = uri }
            if r.event == .playedToEnd { endedItems.append(currentURI) }
        }
        XCTAssertEqual(endedItems, [uris[0], uris[1], uris[3], uris[5]])
    }
}
