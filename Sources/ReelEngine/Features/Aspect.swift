import ReelCore

/// The aspect modes (`AspectMode`): fit, fill (crop) and stretch, through the pipeline's
/// `AspectFilter` (built when `PlayerConfiguration.aspectModes` is on). Owns the mode and the
/// video area's size (the window's, as laid out); applies them to every pipeline built, and to
/// stretch once the picture's size is known at preroll.
@MainActor
final class Aspect: PlayerFeature {
    private(set) var mode: AspectMode = .fit
    private(set) var area: (width: Int, height: Int)?

    func readout(into snapshot: inout PlaybackSnapshot, host: FeatureHost) { snapshot.aspectMode = mode }
    func pipelineBuilt(host: FeatureHost) { apply(host: host, redraw: false) }

    func properties(host: FeatureHost) -> [Property] {
        [.choice("aspect", AspectMode.allCases.map(\.rawValue), "How the picture fills the video area.", get: { $0.aspectMode.rawValue }) {
            self.setMode(AspectMode(rawValue: $0) ?? .fit, host: host)
        }]
    }

    func prerolled(host: FeatureHost) {
        if mode == .stretch { apply(host: host, redraw: false) }  // the picture's size is known now
    }

    func setMode(_ mode: AspectMode, host: FeatureHost) {
        guard mode != self.mode else { return }
        self.mode = mode
        Log.debug(.engine, .info, "aspect: \(mode.rawValue)")
        apply(host: host, redraw: true)
    }

    func setArea(width: Int, height: Int, host: FeatureHost) {
        guard width > 0, height > 0, area.map({ $0 != (width, height) }) ?? true else { return }
        area = (width, height)
        if mode != .fit { apply(host: host, redraw: true) }
    }

    /// Sets the filter for the mode, the area and the picture's size; when paused, the frame on
    /// screen is drawn anew through it.
    private func apply(host: FeatureHost, redraw: Bool) {
        guard let filter = host.aspectFilter else { return }
        filter.apply(mode, area: area, video: host.pictureSize)
        if redraw { host.redrawPausedFrame() }
    }
}

extension Player {
    public var aspectMode: AspectMode { features.first(Aspect.self)?.mode ?? .fit }

    /// Sets how the picture fills the video area; a paused picture is redrawn at once.
    public func setAspectMode(_ mode: AspectMode) { features.first(Aspect.self)?.setMode(mode, host: self) }

    /// The video area's size in pixels (the window's, as laid out): fill and stretch take its shape.
    public func setVideoArea(width: Int, height: Int) {
        output.area = (width, height)
        videoFilter?.fit(width: width, height: height)
        features.first(Aspect.self)?.setArea(width: width, height: height, host: self)
    }
}
