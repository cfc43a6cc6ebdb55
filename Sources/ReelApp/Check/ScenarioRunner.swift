import Foundation
import ReelCore
import ReelEngine
import ReelGLib

/// Plays a `CheckScenario` on a checked item's player: each action through the player or the
/// socket's road (`set` and `expect` read and write the properties the player and its features
/// declare, as `set_property` does), each outcome with its time and the position after it.
/// Frames it captures join the item's (`frame golden=NAME` is the golden comparison's key).
@MainActor
struct ScenarioRunner {
    let player: Player
    let renditions: CheckRenditions
    let registry: IPCCommandRegistry
    /// Captures the frame on screen and stores it; returns the report's frame.
    let capture: (_ name: String, _ at: Double) -> CheckReport.Frame
    let timeout: Double
    /// Counts events by name as they come (`wait event`).
    let events: () -> [String: Int]
    let ended: () -> Bool

    func run(_ scenario: CheckScenario, duration: Double?) -> (ScenarioRun, [CheckReport.Frame]) {
        let started = Date()
        var steps: [ScenarioRun.Step] = []
        var frames: [CheckReport.Frame] = []
        // A scenario starts at the item's start, paused (a live one where it is, playing).
        if !player.mediaInfo.isLive {
            player.pause()
            player.seek(to: 0, mode: .accurate)
            try? settle("the seek to the start")
        }
        for step in scenario.steps {
            var message: String?
            var ok = true
            do {
                message = try perform(step, duration: duration, frames: &frames)
            } catch let e as IPCError {
                ok = false; message = e.message
            } catch {
                ok = false; message = "\(error)"
            }
            if case .failed(let e) = player.status { ok = false; message = (message.map { $0 + "; " } ?? "") + "the item failed: \(e.message)" }
            // A failed `expect` is one finding among others; a failed action leaves the item
            // where the next steps did not expect it: the scenario stops there.
            var isExpectation = false, itemFailed = false
            if case .expect = step.action { isExpectation = true }
            if case .failed = player.status { itemFailed = true }
            let stops = !ok && (!isExpectation || itemFailed)
            if stops, step.line != scenario.steps.last?.line { message = (message ?? "") + " (the scenario stopped here)" }
            steps.append(.init(line: step.line, action: step.text, ok: ok, at: Date().timeIntervalSince(started), position: player.position, message: message))
            if stops { break }
        }
        return (ScenarioRun(name: scenario.name, steps: steps, started: started), frames)
    }

    struct Failure: Error, CustomStringConvertible { var description: String }

    private func settle(_ what: String) throws {
        let done = GLibMainLoop.run(until: { !player.isSeeking || { if case .failed = player.status { return true }; return false }() }, timeout: timeout)
        if !done { throw Failure(description: "\(what) did not land within \(Int(timeout)) s") }
    }

    private func perform(_ step: CheckScenario.Step, duration: Double?, frames: inout [CheckReport.Frame]) throws -> String? {
        switch step.action {
        case .seek(let at, let mode):
            guard let target = at.resolve(duration: duration) else { throw Failure(description: "no duration for a percentage") }
            player.seek(to: target, mode: mode)
            try settle("the seek")
            return String(format: "at %.3f s", player.position)
        case .pause(let seconds):
            player.pause()
            GLibMainLoop.spin(for: seconds)
            return nil
        case .play(let seconds):
            player.play()
            guard let seconds else { return nil }
            let from = player.position
            let done = GLibMainLoop.run(until: { player.position >= from + seconds || ended() || { if case .failed = player.status { return true }; return false }() },
                                        timeout: timeout)
            if !done { throw Failure(description: String(format: "played %.2f s of %.2f s within %.0f s", player.position - from, seconds, timeout)) }
            return nil
        case .setRate(let r):
            guard player.setRate(r) else { throw Failure(description: "the rate \(r) was refused") }
            return nil
        case .select(let kind, let choice):
            return try select(kind, choice)
        case .quality(let choice):
            try renditions.choose(choice)
            return renditions.pinned.map { "rendition \($0): \(RenditionSelector.label(renditions.renditions[$0]))" } ?? "auto"
        case .waitEvent(let name, let limit):
            let before = events()[name] ?? 0
            // A rendition already playing as pinned counts (its event may have come first).
            if name == "rendition", let pinned = renditions.pinned, renditions.playing == pinned, before > 0 { return "already playing" }
            guard GLibMainLoop.run(until: { (events()[name] ?? 0) > before }, timeout: limit) else {
                throw Failure(description: "no \(name) event within \(limit) s")
            }
            return nil
        case .wait(let seconds):
            GLibMainLoop.spin(for: seconds)
            return nil
        case .frame(let name):
            try settle("the seek before the frame")
            let frame = capture(name ?? "line \(step.line)", player.position)
            frames.append(frame)
            if let problem = frame.problem { throw Failure(description: problem) }
            return frame.file.map { "\($0) at \(String(format: "%.3f", frame.time ?? 0)) s" }
        case .expect(let e):
            let value = try read(e.name)
            guard e.holds(value) else { throw Failure(description: "expected \(e), read \(e.name)=\(ScenarioExpectation.shown(value))") }
            return "\(e.name)=\(ScenarioExpectation.shown(value))"
        case .set(let name, let value):
            // As input.conf's `set` gives it: text, each kind reads its own words.
            try registry.properties.set(name, .string(value))
            return nil
        case .playToEnd:
            player.play()
            let done = GLibMainLoop.run(until: { ended() || { if case .failed = player.status { return true }; return false }() }, timeout: timeout)
            if !done { throw Failure(description: "the end was not reached within \(Int(timeout)) s") }
            return nil
        case .seekStorm(let count, let seed):
            guard let duration, duration > 0 else { throw Failure(description: "a seek storm needs a duration") }
            var missed: [String] = []
            let step = 1 / (player.videoFrameRate ?? 25)
            for (k, target) in CheckScenario.stormPositions(count: count, seed: seed, duration: duration).enumerated() {
                switch player.captureFrame(at: target, timeout: timeout) {
                case .failure(let e): missed.append(String(format: "seek %d to %.3f s: %@", k + 1, target, e.message))
                case .success(let f):
                    // An exact seek lands on the frame shown at the target: its PTS within one frame before it.
                    guard let t = f.time, t <= target + 0.001, t > target - step - 0.002 else {
                        missed.append(String(format: "seek %d to %.3f s showed the frame at %@", k + 1, target, f.time.map { String(format: "%.3f s", $0) } ?? "no time"))
                        continue
                    }
                }
            }
            if !missed.isEmpty { throw Failure(description: "\(missed.count) of \(count) seeks missed: " + missed.prefix(5).joined(separator: "; ")) }
            return "\(count) seeks landed, each on its frame"
        case .switchTracks:
            return try switchTracks()
        }
    }

    /// A measure of the check's own, else a property of the socket's.
    private func read(_ name: String) throws -> JSONValue {
        switch name {
        case "position", "time-pos": return .double(player.position)
        case "paused": return .bool(player.intent != .playing)
        case "rate": return .double(player.rate)
        case "picture-width", "picture-height":
            // The picture on screen; just after a flushing seek or rate change the sink holds
            // none until the next frame lands.
            var png = player.snapshotPNG()
            if png == nil { _ = GLibMainLoop.run(until: { png = player.snapshotPNG(); return png != nil }, timeout: 2) }
            guard let png, let size = CapturedFrame.pngSize(png) else { return .null }
            return .int(name == "picture-width" ? size.width : size.height)
        case "rendition": return .optional(renditions.playing)
        case "rendition-height":
            return .optional(renditions.playing.flatMap { renditions.renditions[$0].resolution?.height })
        case "audio-lang", "sub-lang":
            let snapshot = snapshotNow()
            let id = name == "audio-lang" ? snapshot.audioTrack : snapshot.subtitleTrack
            return .optional(snapshot.tracks.first { $0.id == id }.flatMap { $0.language })
        case "ended": return .bool(ended())
        default:
            return try registry.properties.get(name)
        }
    }

    func snapshotNow() -> PlaybackSnapshot { registry.properties.snapshot() }

    private func select(_ kind: CheckScenario.TrackKind, _ choice: String) throws -> String {
        let name = kind == .audio ? "audio-track" : "subtitle-track"
        let tracks = snapshotNow().tracks.filter { $0.kind == (kind == .audio ? .audio : .subtitle) }
        let index: Int?
        if choice == "none" || choice == "no" {
            index = nil
        } else if let i = Int(choice) {
            index = i
        } else if let i = tracks.firstIndex(where: { $0.language?.lowercased() == choice.lowercased() || $0.title?.lowercased() == choice.lowercased() }) {
            index = i
        } else {
            throw Failure(description: "no \(kind.rawValue) track is “\(choice)” (the item has \(tracks.map { $0.language ?? $0.title ?? "?" }.joined(separator: ", ")))")
        }
        try registry.properties.set(name, index.map { .int($0) } ?? .string("no"))
        // The switch is what playbin3 plays (STREAMS_SELECTED), not only the choice asked for.
        guard index.map({ tracks.indices.contains($0) }) ?? true else {
            throw Failure(description: "no \(kind.rawValue) track \(index!) (the item has \(tracks.count))")
        }
        let want = index.map { tracks[$0].id }
        let others = Set(tracks.map(\.id)).subtracting(want.map { [$0] } ?? [])
        let done = GLibMainLoop.run(until: {
            let s = snapshotNow()
            let playing = Set(s.selectedStreams)
            return (kind == .audio ? s.audioTrack : s.subtitleTrack) == want && want.map(playing.contains) ?? true && playing.isDisjoint(with: others)
        }, timeout: min(timeout, 10))
        // The redraw that follows a selection while paused lands before the next step.
        if done { try settle("the redraw after the selection") }
        if !done {
            let playing = snapshotNow().selectedStreams.filter { id in tracks.contains { $0.id == id } }
            throw Failure(description: "the \(kind.rawValue) track did not change to \(want ?? "none"): playing \(playing.isEmpty ? "none" : playing.joined(separator: ", "))")
        }
        return want.map { id in tracks.first { $0.id == id }.map { "\($0.language ?? "?") (\(name) \(index!))" } ?? id } ?? "none"
    }

    private func switchTracks() throws -> String {
        var said: [String] = []
        let tracks = snapshotNow().tracks
        for (i, _) in tracks.filter({ $0.kind == .audio }).enumerated() { said.append("audio " + (try select(.audio, String(i)))) }
        for (i, _) in tracks.filter({ $0.kind == .subtitle }).enumerated() { said.append("sub " + (try select(.sub, String(i)))) }
        for i in renditions.renditions.indices {
            try renditions.choose(.index(i))
            player.play()
            let done = GLibMainLoop.run(until: { renditions.playing == i || ended() }, timeout: min(timeout, 30))
            if !done { throw Failure(description: "rendition \(i) (\(RenditionSelector.label(renditions.renditions[i]))) never played") }
            said.append("rendition \(RenditionSelector.label(renditions.renditions[i]))")
        }
        if !renditions.renditions.isEmpty { try renditions.choose(.auto) }
        return said.isEmpty ? "no tracks to switch" : said.joined(separator: ", ")
    }
}
