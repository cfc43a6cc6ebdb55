import Foundation
@testable import ReelApp
import ReelCore
import ReelEngine
import ReelGLib

/// Plays one URI with the real engine and fakesinks, seeing events as the app does (through
/// the GatewayRouter's refinement).
@MainActor
enum ProtectedPlayback {
    struct Outcome: Sendable {
        var events: [PlayerEvent] = []
        var maxPosition: Double = 0
        var seeksDone = 0
        var ended: Bool { events.contains(.playedToEnd) }
        var error: PlaybackError? {
            for case .error(let e) in events { return e }
            return nil
        }
    }

    /// Plays until the end, an error, `bound` seconds of position, or `timeout`. `seeks`: when
    /// the position first reaches `at`, seek (accurately) to `to`; in order.
    static func play(_ uri: String, router: GatewayRouter, sync: Bool, bound: Double = .infinity, timeout: Double = 30,
                     seeks: [(at: Double, to: Double)] = []) throws -> Outcome {
        let player = try Player(configuration: PlayerConfiguration(audioSink: "fakesink sync=\(sync)", videoSink: "fakesink sync=\(sync)",
                                                                   progressInterval: 0.05))
        defer { player.shutdown() }
        var outcome = Outcome()
        player.addObserver { [weak player] event in
            let event = router.refine(event, uri: player?.currentURI)
            outcome.events.append(event)
            if case .progress(let position, _, _, _) = event {
                outcome.maxPosition = max(outcome.maxPosition, position)
                if let player, outcome.seeksDone < seeks.count, position >= seeks[outcome.seeksDone].at {
                    player.seek(to: seeks[outcome.seeksDone].to, mode: .accurate)
                    outcome.seeksDone += 1
                }
            }
        }
        player.load(uri)
        player.play()
        GLibMainLoop.run(until: { outcome.ended || outcome.error != nil || outcome.maxPosition >= bound }, timeout: timeout)
        return outcome
    }
}
