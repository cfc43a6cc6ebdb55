import Foundation
import ReelCore

/// A target for dispatcher tests that keeps what it is told in a snapshot, and declares, over
/// that snapshot, stand-ins for the properties and commands the engine and the queue own in a
/// real session (the same names and kinds; the real owners are driven over the socket in
/// ReelAppTests: `PropertyRoundTripTests`). `calls` records the transport and the commands.
@MainActor
public final class StandInTarget: PlaybackCommandTarget {
    public var state: PlaybackSnapshot
    public var calls: [String] = []
    public var frame: Result<CapturedFrame, PlaybackError> = .failure(PlaybackError(kind: .output, message: "no frame"))
    public let registry = IPCCommandRegistry()

    public init(state: PlaybackSnapshot) {
        self.state = state
        PlaybackProperties.declare(in: registry.properties, target: self)
        registry.properties.snapshot = { [weak self] in self?.state ?? PlaybackSnapshot() }
        declareStandIns()
    }

    public var snapshot: PlaybackSnapshot { state }
    public func play() { calls.append("play"); state.wantsToPlay = true }
    public func pause() { calls.append("pause"); state.wantsToPlay = false }
    public func toggle() { calls.append("toggle"); state.wantsToPlay.toggle() }
    public func stop() { calls.append("stop") }
    public func seek(to seconds: Double, mode: SeekMode) { calls.append("seek \(seconds) \(mode.rawValue)") }
    public func skip(by seconds: Double) { calls.append("skip \(seconds)") }
    public func next() -> Bool { calls.append("next"); return (state.index ?? 0) + 1 < state.items.count }
    public func previous() -> Bool { calls.append("previous"); return (state.index ?? 0) > 0 }
    public func jump(to index: Int) -> Bool { calls.append("jump \(index)"); return state.items.indices.contains(index) }
    public func item(_ action: IPCCommand.ItemAction, at index: Int) -> Bool { calls.append("\(action.rawValue) \(index)"); return state.items.indices.contains(index) }
    public func moveItem(from: Int, to: Int) -> Bool { calls.append("move \(from) \(to)"); return true }
    public func removeItem(at index: Int) -> Bool { calls.append("remove \(index)"); return true }
    public func load(_ input: String, options: [String: [String]]) { calls.append("load \(input)") }
    public func append(_ input: String, options: [String: [String]]) { calls.append("append \(input)") }
    public func captureFrame(_ completion: @escaping @MainActor (Result<CapturedFrame, PlaybackError>) -> Void) { completion(frame) }
    public func captureWindow(_ completion: @escaping @MainActor (Result<CapturedFrame, PlaybackError>) -> Void) {
        completion(.failure(PlaybackError(kind: .output, message: "There is no window in this session (headless): only the video frame can be captured.")))
    }
    public func quit(status: Int32) { calls.append("quit \(status)") }

    private func declareStandIns() {
        let t = self
        var volume = Property.number("volume", NumberSpec(range: IPCVolume.range, step: 2), "", get: { $0.volume * 100 }) { v in
            t.calls.append("volume \(v / 100)")
            t.state.volume = min(t.state.volumeMax, v / 100)
        }
        volume.bounds = { s in 0...(s.volumeMax * 100).rounded() }
        var chapter = Property.number("chapter", NumberSpec(range: 0...1000, whole: true), "", get: { $0.chapter.map(Double.init) }) { t.calls.append("chapter = \(Int($0))") }
        chapter.step = { t.calls.append("chapter \(Int($0))") }
        chapter.cycle = { t.calls.append("chapter \($0 ? -1 : 1)") }
        var subtitle = Property.optionalNumber("subtitle-track", NumberSpec(range: -1...100, whole: true, none: "no"), "", get: { _ in .null }) { _ in }
        subtitle.cycle = { _ in t.calls.append("cycle subtitle") }
        registry.properties.declare("stand-in", [
            volume,
            .flag("mute", "", get: { $0.muted }) { t.calls.append("muted \($0)"); t.state.muted = $0 },
            .number("speed", .rate, "", aliases: ["rate"], get: { $0.rate }) { r in
                t.calls.append("rate \(r)")
                guard r > 0 else { throw IPCError(.unavailable, "The rate \(r) was refused.") }
                t.state.rate = r
            },
            .choice("aspect", AspectMode.allCases.map(\.rawValue), "", get: { $0.aspectMode.rawValue }) { t.state.aspectMode = AspectMode(rawValue: $0) ?? .fit },
            .choice("loop-file", ["no", "inf"], "", synonyms: ["yes": "inf"], get: { $0.loop == .track ? "inf" : "no" }) { t.state.loop = $0 == "inf" ? .track : .none },
            .number("audio-delay", NumberSpec(range: -600...600, step: 0.1), "", get: { $0.audioDelay }) { t.state.audioDelay = $0 },
            chapter,
            subtitle,
            PlaybackProperties.rendition { t.calls.append("rendition \($0)") },
        ] + PictureAdjustments.Control.allCases.map { control in
            .number(control.rawValue, NumberSpec(range: -100...100, whole: true), "", get: { Double($0.picture[control]) }) { t.state.picture[control] = Int($0) }
        })
        for (name, ok) in [("frame-step", { t.state.status == .readyToPlay }), ("frame-back-step", { t.state.status == .readyToPlay }),
                           ("live-edge", { t.state.mediaInfo.isLive }), ("ab-loop", { true })] {
            registry.register(name) { args in
                guard args.isEmpty else { throw IPCError(.invalidArgument, "“\(name)” takes 0 argument(s), got \(args.count).") }
                t.calls.append(name)
                guard ok() else { throw IPCError(.unavailable, "not now") }
                return .null
            }
        }
    }
}
