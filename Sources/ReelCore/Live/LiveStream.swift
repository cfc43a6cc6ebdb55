import Foundation
import Synchronization

/// What Reel knows of one live item while it plays, shared by the gateway (which edits and
/// serves its media playlists, on its event loop) and the engine (which reads positions against
/// them, on the main thread): the programme asked for, the newest playlist the engine was given,
/// and whether the engine has started (after which the start is no longer steered).
public final class LiveStream: Sendable {
    public let program: LiveProgram?
    private let state = Mutex(State())

    private struct State {
        var snapshot: LiveWindowSnapshot?
        var started = false
        var start: (rule: String, seconds: Double)?
        var problem: String?
        var problemTaken = false
        /// The window's first segment moved at the last change: it slides (a restart or an event
        /// playlist grows instead). Until a refresh says, a live item without a programme slides.
        var slides: Bool?
        /// Seconds the server's clock is ahead of ours (`DASHClock`), once measured.
        var clockOffset: Double?
        var clockAskedAt: Date?
        /// The programme with its mode decided at the first playlist served (`programInForce`).
        var decided: LiveProgram?
    }

    public init(program: LiveProgram?) {
        self.program = program
    }

    /// The editor for the next media playlist.
    public var editor: LivePlaylistEditor { editor(now: Date()) }

    private func editor(now: Date) -> LivePlaylistEditor {
        let (inForce, started) = state.withLock { s in (Self.inForce(program, &s, now: now), s.started) }
        return LivePlaylistEditor(program: inForce, steersStart: !started)
    }

    /// The programme as it plays: its mode decided when the first playlist (or MPD) was served
    /// and kept (`LiveProgram.decided`); nil before then, and without a programme.
    public var programInForce: LiveProgram? { state.withLock { $0.decided } }

    private static func inForce(_ program: LiveProgram?, _ s: inout State, now: Date) -> LiveProgram? {
        if s.decided == nil { s.decided = program?.decided(at: now) }
        return s.decided
    }

    /// Edits a media playlist the engine is about to get (its window capped: `LiveWindowCap`)
    /// and keeps its snapshot. `closing`: the
    /// gateway closes it after this (`--finished`, an event past its end): it is VOD then.
    public func serve(_ text: String, closing: Bool = false, now: Date = Date()) -> String {
        // The newest segments only (`LiveWindowCap`), before anything parses the playlist.
        let output = editor(now: now).edit(LiveWindowCap.cap(text).text, now: now)
        state.withLock { s in
            if var snapshot = output.snapshot {
                snapshot.hasEndList = snapshot.hasEndList || closing
                Self.keep(snapshot, in: &s)
            }
            if !s.started, let start = output.start { s.start = start }
            if s.problem == nil, let problem = output.problem { s.problem = problem }
        }
        return output.text
    }

    /// Reads the window of a DASH MPD the engine is about to get (`DASHLiveWindow`): a dynamic
    /// one's segments on the wall clock, as a media playlist's. The MPD itself is not edited.
    /// Returns what the gateway writes into the MPD (`DASHLiveWindow.steer`: how far behind now
    /// the demuxer starts, the catchup's programme), nil when not live.
    ///
    /// The window is read on the server's clock (`now` + `clockOffset`); the MPD the demuxer gets
    /// is moved onto ours (`DASHManifestRewriter`'s `clockOffset`), so the delay is the same.
    @discardableResult
    public func serveMPD(_ text: String, now: Date = Date()) -> DASHLiveWindow.Steered? {
        let offset = clockOffset ?? 0
        let serverNow = now.addingTimeInterval(offset)
        guard var window = DASHLiveWindow.snapshot(text, now: serverNow) else { return nil }
        window.receivedAt = now  // elapsed time since is measured on our clock
        // A restart's window begins at the programme, and playback at its start.
        let inForce = state.withLock { s in Self.inForce(program, &s, now: serverNow) }
        let steered = DASHLiveWindow.steer(window, program: inForce, now: serverNow)
        state.withLock { s in
            Self.keep(steered.snapshot, in: &s)
            if !s.started, let start = steered.start { s.start = start }
            if s.problem == nil, let problem = steered.problem { s.problem = problem }
        }
        return steered
    }

    private static func keep(_ snapshot: LiveWindowSnapshot, in s: inout State) {
        if let previous = s.snapshot {
            if snapshot.firstSequence > previous.firstSequence {
                s.slides = true
            } else if snapshot.firstSequence == previous.firstSequence, snapshot.durations.count > previous.durations.count {
                s.slides = false  // it grew from the same first segment: an event, a restart
            }
        }
        s.snapshot = snapshot
    }

    /// Seconds the server's clock is ahead of ours (negative: behind), once measured (`DASHClock`).
    public var clockOffset: Double? { state.withLock { $0.clockOffset } }
    public func setClockOffset(_ offset: Double) { state.withLock { $0.clockOffset = offset } }

    /// Whether the server's clock should be asked now: not measured yet, and not asked in the
    /// last 30 s (a time source that failed is asked again then, as dashdemux2 does).
    public func shouldAskClock(at now: Date = Date()) -> Bool {
        state.withLock { s in
            guard s.clockOffset == nil else { return false }
            if let asked = s.clockAskedAt, now.timeIntervalSince(asked) < 30 { return false }
            s.clockAskedAt = now
            return true
        }
    }

    /// Whether the window slides (its start moves with its edge) rather than grows.
    public var slides: Bool {
        state.withLock { s in s.slides ?? ((program?.mode ?? .live) == .live && s.snapshot.map { !$0.hasEndList } ?? true) }
    }

    /// The newest playlist given to the engine.
    public var snapshot: LiveWindowSnapshot? { state.withLock { $0.snapshot } }

    /// Where the start was steered to (seconds from the window's start) and by which rule.
    public var plannedStart: (rule: String, seconds: Double)? { state.withLock { $0.start } }

    /// The engine has started: playlists are no longer held back.
    public func markStarted() { state.withLock { $0.started = true } }
    public var hasStarted: Bool { state.withLock { $0.started } }

    /// Why the programme could not be applied, once (nil after the first call).
    public func takeProblem() -> String? {
        state.withLock { s in
            guard !s.problemTaken, let p = s.problem else { return nil }
            s.problemTaken = true
            return p
        }
    }
}
