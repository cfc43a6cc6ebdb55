import CGStreamer
import ReelCore

/// The aspect modes (`AspectMode`): fit, fill (crop) and stretch, through the pipeline's
/// `AspectFilter` (built when `PlayerConfiguration.aspectModes` is on).
extension Player {
    /// Sets how the picture fills the video area; a paused picture is redrawn at once.
    public func setAspectMode(_ mode: AspectMode) {
        guard mode != aspectMode else { return }
        aspectMode = mode
        applyAspect(redraw: true)
    }

    /// The video area's size in pixels (the window's, as laid out): fill and stretch take its shape.
    public func setVideoArea(width: Int, height: Int) {
        guard width > 0, height > 0, videoArea.map({ $0 != (width, height) }) ?? true else { return }
        videoArea = (width, height)
        if aspectMode != .fit { applyAspect(redraw: true) }
    }

    /// Sets the filter for the mode, the area and the picture's size. A new frame renegotiates
    /// it; when paused, the same position is sought again so that the frame on screen changes.
    func applyAspect(redraw: Bool) {
        guard let aspectFilter else { return }
        let video = mediaInfo.width.flatMap { w in mediaInfo.height.map { (width: w, height: $0) } }
        aspectFilter.apply(aspectMode, area: videoArea, video: video)
        if redraw { redrawPausedFrame() }
    }

    /// When paused, seeks to the same position again so that the frame on screen is drawn anew
    /// (through a changed filter: aspect, subtitles).
    func redrawPausedFrame() {
        guard prerolled, pipelineState == .paused, seekTarget == nil else { return }
        performSeek(to: streamPosition, rate: rate, mode: .accurate, user: false)
    }
}
