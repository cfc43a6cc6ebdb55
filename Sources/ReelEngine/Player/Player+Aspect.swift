import CGStreamer
import ReelCore

/// The aspect modes (`AspectMode`): fit, fill (crop) and stretch, through the pipeline's
/// `AspectFilter` (built when `PlayerConfiguration.aspectModes` is on).
/// How the picture fills the video area, and the area's size (the window's, as laid out).
struct AspectChoice {
    var mode: AspectMode = .fit
    var area: (width: Int, height: Int)?
}

extension Player {
    /// Sets how the picture fills the video area; a paused picture is redrawn at once.
    public func setAspectMode(_ mode: AspectMode) {
        guard mode != aspect.mode else { return }
        aspect.mode = mode
        applyAspect(redraw: true)
    }

    /// The video area's size in pixels (the window's, as laid out): fill and stretch take its shape.
    public func setVideoArea(width: Int, height: Int) {
        guard width > 0, height > 0, aspect.area.map({ $0 != (width, height) }) ?? true else { return }
        aspect.area = (width, height)
        if aspect.mode != .fit { applyAspect(redraw: true) }
    }

    /// Sets the filter for the mode, the area and the picture's size. A new frame renegotiates
    /// it; when paused, the same position is sought again so that the frame on screen changes.
    func applyAspect(redraw: Bool) {
        guard let aspectFilter else { return }
        // The picture as it enters the aspect filter: turned upright (a phone's portrait video
        // is stored landscape); before a frame has passed, the stored size.
        let video = videoFilter?.turnedPixelSize ?? mediaInfo.width.flatMap { w in mediaInfo.height.map { (width: w, height: $0) } }
        aspectFilter.apply(aspect.mode, area: aspect.area, video: video)
        if redraw { redrawPausedFrame() }
    }

    /// When paused, seeks to the same position again so that the frame on screen is drawn anew
    /// (through a changed filter: aspect, subtitles).
    func redrawPausedFrame() {
        guard prerolled, pipelineState == .paused, seekTarget == nil else { return }
        performSeek(to: streamPosition, rate: rate, mode: .accurate, user: false)
    }
}
