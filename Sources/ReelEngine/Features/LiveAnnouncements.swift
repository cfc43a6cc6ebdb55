import Foundation
import ReelCore

/// What a live item says of itself: at preroll the gateway stops steering the start, and the
/// start is said (`live` event) with what could not be honoured (a programme not in the stream)
/// as a warning; once the wall clock passes a live or restart programme's end,
/// `live-program-end` (playback goes on; what to do is the user's).
@MainActor
final class LiveAnnouncements: PlayerFeature {
    private var startAnnounced = false
    private var programEndAnnounced = false
    /// The wall clock (tests set it).
    var wallClock: () -> Date = Date.init

    func itemStarted(_ item: PlaybackItem, switched: Bool, host: FeatureHost) {
        startAnnounced = false
        programEndAnnounced = false
    }

    func prerolled(host: FeatureHost) {
        guard let live = host.liveStream else { return }
        live.markStarted()
        if let problem = live.takeProblem() {
            Log.debug(.engine, .info, "live: the programme could not be played as asked: \(problem)")
            host.emit(.warning(PlaybackError(kind: .liveProgram, message: "The programme could not be played as asked: \(problem).", uri: host.currentURI)))
        }
        guard !startAnnounced, let timeline = host.liveTimeline else { return }
        startAnnounced = true
        let rule = live.plannedStart?.rule ?? timeline.snapshot.safeDistance.rule
        let mode = (live.programInForce ?? live.program)?.effectiveMode(at: wallClock()) ?? .live
        Log.debug(.engine, .info, "live: started in \(mode.rawValue) mode (\(rule))")
        host.emit(.liveStart(mode: mode, rule: rule, live: timeline.report(stream: host.streamPosition)))
    }

    func tick(host: FeatureHost) {
        guard !programEndAnnounced, let live = host.liveStream, let end = live.program?.end, live.program?.mode != .catchup,
              live.snapshot?.hasEndList != true, host.isPrerolled, wallClock() >= end else { return }
        programEndAnnounced = true
        Log.debug(.engine, .info, "live: the programme's end has passed")
        host.emit(.liveProgramEnd(programEnd: end))
    }
}
