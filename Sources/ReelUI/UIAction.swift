import ReelCore

/// Everything the window asks for. The window never acts on the player itself: it emits one of
/// these and waits for the next `PlayerViewState`.
public enum UIAction: Sendable, Equatable {
    case playPause
    /// Seek to an absolute position in seconds (the seek bar, on release).
    case seek(to: Double)
    /// Skip relative to the current position (arrow keys, skip buttons).
    case skip(by: Double)
    /// Linear volume 0…1.
    case setVolume(Double)
    case toggleMute
    case setRate(Double)
    case resetRate
    case frameStep(forward: Bool)
    case next
    case previous
    case toggleFullscreen
    case togglePlaylist
    /// Save the video frame on screen (`s`).
    case captureFrame
    /// Save the window as it looks (`Ctrl+s`).
    case captureWindow
    case openFiles([String])
    case openURL(String)
    /// Play the playlist row at this index (double-click, Enter).
    case playIndex(Int)
    /// Move playlist row `from` so that it lands before the row that was at `to` (0…count).
    case moveItem(from: Int, to: Int)
    case removeItem(Int)
    /// Play the item the metered policy refused, this once (the banner's button).
    case playAnyway
    /// The resume notice's "Start over": the item plays from its beginning, its place forgotten.
    case startOver
    /// `a`: the next aspect mode (fit → fill → stretch).
    case cycleAspect
    /// `#`: the next audio track; `j`: the next subtitle track (then none); `v`: subtitles shown or hidden.
    case cycleAudioTrack
    case cycleSubtitleTrack
    case toggleSubtitles
    /// The tracks menu: an audio track, a subtitle track or none (nil).
    case selectAudioTrack(String)
    case selectSubtitleTrack(String?)
    /// `G` / `F`: the subtitles larger or smaller by this factor step.
    case changeSubtitleScale(by: Double)
    /// `z`/`Z` (seconds), `r`/`R` (position steps), as in mpv.
    case changeSubtitleDelay(by: Double)
    case changeSubtitlePosition(by: Int)
    /// What network items do on a metered connection from now on (the video menu).
    case setMeteredPolicy(MeteredPolicy)
    case setHardwareDecoding(HardwareDecodingMode)
    /// The quality menu: "auto" or a rendition's index (`QualityChoice` text).
    case setQuality(String)
    /// Go to the live edge (the LIVE badge, End).
    case goLive
    /// To the next (1) or previous (-1) chapter (PgUp, PgDn as mpv).
    case stepChapter(Int)
    /// `l`: the A-B loop's A, then B, then neither (mpv's `ab-loop`).
    case cycleABLoop
    /// `i`: the stats for 5 s; `I` (`sticky`): shown until `I` again (mpv's stats keys).
    case showStats(sticky: Bool)
    /// Alt+arrows, Alt++ / Alt+-: the picture's zoom and pan by steps (mpv's `video-zoom`, `video-pan-x/y`).
    case moveVideo(zoom: Double, panX: Double, panY: Double)
    /// Alt+Backspace: the whole picture again (zoom and pan 0; the rotation stays).
    case resetVideo
    /// `L`: loop the item or not (mpv's `cycle-values loop-file inf no`).
    case toggleLoopFile
    /// Ctrl++ / Ctrl+−: the audio delay by a step (seconds).
    case changeAudioDelay(by: Double)
    /// 1–8: a picture control by a step (mpv's keys).
    case changePicture(PictureAdjustments.Control, by: Int)
    case quit
}
