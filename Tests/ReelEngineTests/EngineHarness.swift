import Foundation
import ReelCore
import ReelEngine
import ReelTestSupport
import XCTest
import ReelGLib

/// A player with fake sinks and an event log, for engine tests.
@MainActor
final class EngineHarness {
    let player: Player
    private(set) var events: [(time: Date, event: PlayerEvent)] = []

    init(sync: Bool = true, endAction: EndAction = .pause, progressInterval: Double = 0.1,
         audioLanguages: [String] = [], subtitleLanguages: [String] = [], subtitleFiles: [String] = [],
         videoSink: String? = nil, hardwareDecoding: HardwareDecodingMode = .auto) throws {
        var configuration = PlayerConfiguration(
            audioSink: "fakesink sync=\(sync)", videoSink: videoSink ?? "fakesink sync=\(sync) enable-last-sample=true",
            progressInterval: progressInterval, endAction: endAction)
        configuration.preferences.audioLanguages = audioLanguages
        configuration.preferences.subtitleLanguages = subtitleLanguages
        configuration.preferences.subtitleFiles = subtitleFiles
        configuration.preferences.hardwareDecoding = hardwareDecoding
        player = try Player(configuration: configuration)
        player.addObserver { [unowned self] e in self.events.append((Date(), e)) }
    }

    func shutdown() { player.shutdown() }

    var timeControls: [TimeControlStatus] { events.compactMap { if case .timeControl(let t) = $0.event { t } else { nil } } }
    var statuses: [ItemStatus] { events.compactMap { if case .status(let s) = $0.event { s } else { nil } } }
    var errors: [PlaybackError] { events.compactMap { if case .error(let e) = $0.event { e } else { nil } } }
    var warnings: [PlaybackError] { events.compactMap { if case .warning(let w) = $0.event { w } else { nil } } }
    var ended: Int { events.filter { $0.event == .playedToEnd }.count }
    func progress(_ tick: ProgressTick? = nil) -> [(time: Date, position: Double)] {
        events.compactMap {
            if case .progress(let p, _, let t, _) = $0.event, tick == nil || t == tick { return ($0.time, p) }
            return nil
        }
    }

    /// Spins the main loop until `condition` holds; fails the test on timeout.
    @discardableResult
    func wait(_ what: String, timeout: Double = 10, file: StaticString = #filePath, line: UInt = #line, _ condition: () -> Bool) -> Bool {
        let ok = GLibMainLoop.run(until: condition, timeout: timeout)
        if !ok { XCTFail("timed out waiting for \(what); events: \(events.map(\.event))", file: file, line: line) }
        return ok
    }

    func waitReady(file: StaticString = #filePath, line: UInt = #line) {
        wait("readyToPlay", file: file, line: line) { player.status == .readyToPlay }
    }

    func waitSeekDone(file: StaticString = #filePath, line: UInt = #line) {
        wait("seek done", file: file, line: line) { player.timeControlStatus != .waitingToPlayAtSpecifiedRate(.seeking) && !isSeeking }
    }

    /// Loads the generated media `name`, waits until it is ready and, given `position`, until an
    /// accurate seek there has landed (paused).
    func loadReady(_ name: String, at position: Double? = nil, file: StaticString = #filePath, line: UInt = #line) {
        player.load(TestMedia.path(name))
        waitReady(file: file, line: line)
        guard let position else { return }
        player.seek(to: position, mode: .accurate)
        waitSeekDone(file: file, line: line)
    }

    private var isSeeking: Bool { player.timeControlStatus == .waitingToPlayAtSpecifiedRate(.seeking) }
}
