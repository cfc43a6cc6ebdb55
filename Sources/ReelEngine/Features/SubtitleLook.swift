import CGStreamer
import ReelCore

/// The subtitles' size factor, delay and vertical position (`F`/`G`, `z`/`Z`, `r`/`R`; mpv's
/// `sub-scale`, `sub-delay`, `sub-pos`), for the media's own subtitles (playbin3's
/// `subtitle-font-desc` and `text-offset`) and the files Reel draws (`SubtitleOverlay`) alike:
/// set on every pipeline built, kept across items.
@MainActor
final class SubtitleLook: PlayerFeature {
    private(set) var look = SubtitleAdjustments()
    /// mpv's `sub-speed`: the subtitle files' times multiplied by it (25/23.976 for a file timed
    /// for PAL); the media's own subtitle streams keep theirs (playbin3 has no rate for them).
    private(set) var speed = 1.0
    static let speedRange = 0.1...10.0

    func configure(_ configuration: PlayerConfiguration) { look = configuration.preferences.subtitleLook }

    func pipelineBuilt(host: FeatureHost) {
        applyScale(host: host)
        applyTiming(host: host)
        host.subtitleOverlay?.setPosition(look.position)
    }

    func readout(into snapshot: inout PlaybackSnapshot, host: FeatureHost) { snapshot.subtitleLook = look }

    /// Sets the size factor (clamped to `SubtitleStyle.scaleRange`).
    func setScale(_ scale: Double, host: FeatureHost) {
        adjust(\.scale, to: SubtitleStyle.clampedScale(scale), host: host) { applyScale(host: host) }
    }

    /// Sets the delay (clamped to `SubtitleStyle.delayRange`); a paused frame shows it at once.
    func setDelay(_ delay: Double, host: FeatureHost) {
        adjust(\.delay, to: SubtitleStyle.clampedDelay(delay), host: host) { applyTiming(host: host) }
    }

    /// Sets the vertical position (clamped to 0–150) of the subtitles Reel draws.
    func setPosition(_ position: Int, host: FeatureHost) {
        adjust(\.position, to: SubtitleStyle.clampedPosition(position), host: host) { host.subtitleOverlay?.setPosition(look.position) }
    }

    /// One adjustment: kept, applied, and shown at once on a paused frame; nothing when it is already so.
    private func adjust<Value: Equatable>(_ key: WritableKeyPath<SubtitleAdjustments, Value>, to value: Value, host: FeatureHost, apply: () -> Void) {
        guard look[keyPath: key] != value else { return }
        look[keyPath: key] = value
        apply()
        host.redrawPausedFrame()
    }

    /// The delay on the overlay's cues and on playbin3's own text stream (`text-offset`, ns).
    private func applyTiming(host: FeatureHost) {
        reel_set_int64(host.pipelineElement, "text-offset", gint64(look.delay * 1e9))
        host.subtitleOverlay?.setClock(CueClock(delay: look.delay, speed: speed))
    }

    func properties(host: FeatureHost) -> [Property] {
        let position = Double(SubtitleStyle.positionRange.lowerBound)...Double(SubtitleStyle.positionRange.upperBound)
        return [
            .number("sub-scale", NumberSpec(range: SubtitleStyle.scaleRange, step: SubtitleStyle.scaleStep, clampsOnSet: true), "The subtitles' size factor.",
                    get: { $0.subtitleLook.scale }) { self.setScale($0, host: host) },
            .number("sub-delay", NumberSpec(range: SubtitleStyle.delayRange, step: SubtitleStyle.delayStep, unit: "s"), "Seconds the subtitles come later.",
                    get: { $0.subtitleLook.delay }) { self.setDelay($0, host: host) },
            .number("sub-pos", NumberSpec(range: position, whole: true), "The subtitles' height: 0 top, 100 bottom, to 150.",
                    get: { Double($0.subtitleLook.position) }) { self.setPosition(Int($0), host: host) },
            .number("sub-speed", NumberSpec(range: Self.speedRange, step: 0.1), "The subtitle files' times multiplied by this (mpv's: 25/23.976 for PAL timing); the media's own streams keep theirs.",
                    get: { _ in self.speed }) { value in
                guard value != self.speed else { return }
                self.speed = value
                self.applyTiming(host: host)
                host.redrawPausedFrame()
            },
        ]
    }

    private func applyScale(host: FeatureHost) {
        reel_set_string(host.pipelineElement, "subtitle-font-desc", SubtitleStyle.fontDescription(scale: look.scale))
        host.subtitleOverlay?.setScale(look.scale)
    }
}

extension Player {
    private var lookFeature: SubtitleLook? { features.first(SubtitleLook.self) }

    /// The subtitles' size factor, delay and position as they are now.
    public var subtitleLook: SubtitleAdjustments { lookFeature?.look ?? SubtitleAdjustments() }
    /// The subtitles' size factor (`SubtitleStyle`; `F`/`G`).
    public var subtitleScale: Double { subtitleLook.scale }
    /// Seconds the subtitles come later than their times (negative: earlier; `z`/`Z`).
    public var subtitleDelay: Double { subtitleLook.delay }
    /// Their vertical position, 0 top … 100 bottom … 150 (mpv's `sub-pos`; `r`/`R`).
    public var subtitlePosition: Int { subtitleLook.position }

    public func setSubtitleScale(_ scale: Double) { lookFeature?.setScale(scale, host: self) }
    /// For files and the media's own subtitles alike; a paused frame shows it at once.
    public func setSubtitleDelay(_ delay: Double) { lookFeature?.setDelay(delay, host: self) }
    public func setSubtitlePosition(_ position: Int) { lookFeature?.setPosition(position, host: self) }
}
