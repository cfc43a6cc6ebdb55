import Foundation
import ReelCore
import ReelEngine
import ReelGLib

/// Seek latency through Reel's `Player`: the time from `seek(to:mode:)` to the `.seeked` event,
/// which the engine emits at ASYNC_DONE, i.e. when the first frame at the new position has
/// reached the (prerolled) video sink. Each landing is checked against the frame actually in the
/// sink (`displayedFrameTime`): accurate seeks must land within one frame of the target, keyframe
/// seeks at or before it and within the keyframe interval; misses are counted and left out of
/// the latency samples. The peer baseline,
/// Resources/scripts/bench_seek_peer.py, measures raw playbin3 the same way.
@MainActor
enum SeekBenchmark {
    static func run(_ args: BenchArguments) -> Int32 {
        guard let file = args.positional.first else { return BenchOutput.fail("seek: no FILE") }
        guard let mode = SeekMode(rawValue: args.string("mode", default: "accurate")) else { return BenchOutput.fail("seek: bad --mode") }
        let playing = args.string("state", default: "paused") == "playing"
        let targets = args.doubles("targets")
        guard !targets.isEmpty else { return BenchOutput.fail("seek: no --targets") }
        let keyframeInterval = Double(args.string("keyframe-interval", default: "1")) ?? 1

        let player: Player
        do {
            player = try Player(configuration: PlayerConfiguration(
                audioSink: "fakesink sync=true", videoSink: "fakesink sync=true", endAction: .pause))
        } catch { return BenchOutput.fail("seek: \(error)") }
        defer { player.shutdown() }

        var seeked: Double?
        var failure: PlaybackError?
        player.addObserver { event in
            switch event {
            case .seeked(let p): seeked = p
            case .error(let e): failure = e
            default: break
            }
        }
        player.load(file)
        if playing { player.play() }
        let ready = GLibMainLoop.run(until: { player.status == .readyToPlay && (!playing || player.timeControlStatus == .playing) || failure != nil }, timeout: 20)
        if let failure { return BenchOutput.fail("seek: \(failure.code): \(failure.message)") }
        guard ready else { return BenchOutput.fail("seek: the file did not preroll in 20 s") }
        GLibMainLoop.spin(for: 0.3)  // settle: the peer, too, starts from a prerolled, idle pipeline

        var samples: [Double] = []
        var misses = 0
        var landings: [JSONValue] = []
        for target in targets {
            seeked = nil
            let start = ContinuousClock.now
            player.seek(to: target, mode: mode)
            guard GLibMainLoop.run(until: { seeked != nil || failure != nil }, timeout: 10), failure == nil else {
                return BenchOutput.fail("seek to \(target) did not complete: \(failure?.message ?? "timeout")")
            }
            let elapsed = ContinuousClock.now - start
            let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
            let frame = player.displayedFrameTime
            let ok: Bool
            if let frame {
                ok = mode == .accurate ? abs(frame - target) <= 0.034 : (frame <= target + 0.001 && target - frame <= keyframeInterval + 0.001)
            } else { ok = false }
            // Only verified landings count: a "seeked" without the new frame in the sink is a miss.
            if ok { samples.append(ms) } else { misses += 1 }
            landings.append(.optional(frame))
            if playing { GLibMainLoop.spin(for: 0.05) }  // let playback resume, as a user's next seek would find it
        }
        BenchOutput.print([
            "status": .string("ok"), "player": .string("reel"), "mode": .string(mode.rawValue),
            "state": .string(playing ? "playing" : "paused"),
            "samples_ms": .array(samples.map { .double($0) }),
            "misses": .int(misses), "landed": .array(landings),
        ])
        return misses == 0 ? 0 : 3
    }
}
