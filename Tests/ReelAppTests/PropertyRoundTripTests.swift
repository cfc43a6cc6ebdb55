import Foundation
@testable import ReelApp
import ReelCore
import ReelEngine
import ReelGLib
import ReelTestSupport
import XCTest

/// Issue 57: every property a session declares (by its owner: the player, its features, the
/// queue, the window), driven by the same generic verbs the socket runs, on a real playbin3
/// playing a real file: get → set → get gives the value back, `add` far past either end is held to
/// the kind's range, `cycle` moves a flag or a choice, and a value of the wrong type is refused
/// with mpv's words. A new property is in this test the moment it is declared.
final class PropertyRoundTripTests: XCTestCase {
    override func setUp() { TestMedia.ensureGenerated() }

    func testEveryDeclaredPropertyRoundTripsAndIsHeldToItsKind() throws {
        try MainActor.assumeIsolated {
            var configuration = PlayerConfiguration(audioSink: "fakesink sync=true", videoSink: "fakesink sync=true")
            configuration.aspectModes = true
            let player = try Player(configuration: configuration)
            let sequencer = QueueSequencer(player: player, queue: PlayQueue([QueueItem(uri: TestMedia.url("chapters.mkv").absoluteString)], repeatMode: .one))
            let commands = QueueCommandTarget(controller: sequencer, intake: QueueIntake(controller: sequencer))
            let registry = IPCCommandRegistry()
            SessionDeclarations.declare(in: registry, commands: commands)
            defer {
                sequencer.detach()
                player.shutdown()
            }
            sequencer.play(at: 0)
            XCTAssertTrue(GLibMainLoop.run(until: { player.timeControlStatus == .playing }, timeout: 20), "\(player.status)")
            sequencer.pause()
            XCTAssertTrue(GLibMainLoop.run(until: { player.timeControlStatus == .paused }, timeout: 10))
            let table = registry.properties
            @MainActor func settle() { GLibMainLoop.spin(for: 0.05) }
            func same(_ a: JSONValue, _ b: JSONValue) -> Bool {
                if let x = a.ipcNumber, let y = b.ipcNumber { return abs(x - y) < 1e-6 }
                return PropertyTable.sameValue(a, b)
            }
            // What moves playback itself is not stepped here (the transport has its own tests).
            let transport: Set<String> = ["time-pos", "playlist-pos", "pause"]
            var checked = 0
            XCTAssertGreaterThan(table.declared.count, 60)
            for p in table.declared {
                let name = p.name
                let before: JSONValue
                do { before = try table.get(name) } catch { XCTFail("get \(name): \(error)"); continue }
                guard p.isWritable else {
                    XCTAssertThrowsError(try table.set(name, before), name) { XCTAssertEqual(($0 as? IPCError)?.code, .readOnlyProperty, name) }
                    continue
                }
                guard !transport.contains(name) else { continue }
                // get → set → get.
                let typed: Bool = switch p.kind {
                case .text: before.ipcString != nil
                default: before != .null
                }
                if typed {
                    do {
                        try table.set(name, before)
                        settle()
                        let after = try table.get(name)
                        XCTAssertTrue(same(after, before), "\(name): \(before) set back reads \(after)")
                        checked += 1
                    } catch let e as IPCError where e.code == .unavailable {
                        // fullscreen without a window, a track that is not there: said so, never another error.
                    } catch { XCTFail("set \(name) \(before): \(error)") }
                }
                // A value of the wrong type: mpv's error.
                let wrong: JSONValue? = switch p.kind {
                case .flag: .string("maybe")
                case .number: .string("loud")
                case .choice: .array([.int(1)])
                case .text: .array([])
                case .json: nil
                }
                if let wrong {
                    XCTAssertThrowsError(try table.set(name, wrong), name) { XCTAssertEqual(($0 as? IPCError)?.code, .propertyFormat, "\(name) \(wrong)") }
                }
                switch p.kind {
                case .number(let spec) where p.step == nil:
                    guard let range = spec.range else { continue }
                    for step in [1e12, -1e12, 1e300] {
                        do {
                            try table.add(name, step)
                            settle()
                            let n = try XCTUnwrap(try table.get(name).ipcNumber, "\(name) after add \(step)")
                            if spec.wraps != nil {
                                XCTAssertTrue((0..<360).contains(n), "\(name) wraps: \(n)")
                            } else {
                                XCTAssertTrue(range.contains(n), "\(name) after add \(step): \(n) outside \(range)")
                            }
                        } catch let e as IPCError where e.code == .unavailable || (e.code == .invalidArgument && name == "video-rotate") {
                            // the setting refused the bound (a rate the pipeline cannot play); the value stays
                        } catch { XCTFail("add \(name) \(step): \(error)") }
                    }
                case .flag, .choice:
                    do {
                        try table.cycle(name)
                        settle()
                        let after = try table.get(name)
                        XCTAssertFalse(same(after, before), "cycle \(name) moved it from \(before)")
                    } catch let e as IPCError where e.code == .unavailable {
                    } catch { XCTFail("cycle \(name): \(error)") }
                default:
                    break
                }
            }
            XCTAssertGreaterThan(checked, 25, "most writable properties round-trip")
            XCTAssertTrue(player.isPrerolled, "the player lived through it: \(player.status)")
        }
    }
}
