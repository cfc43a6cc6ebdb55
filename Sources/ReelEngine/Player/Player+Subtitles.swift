import CGStreamer
import Foundation
import ReelCore
import ReelGLib

/// External subtitle files (beside a local file, `--sub-file`): read at each item's start,
/// listed as subtitle tracks after the item's own, drawn by the video filter's overlay
/// (`SubtitleOverlay`) when chosen and shown; and the subtitles' size (`F`/`G`), for embedded
/// subtitles (playbin3's `subtitle-font-desc`) and files alike.
extension Player {
    /// Makes the pipeline's video filter (`VideoFilter`): its aspect part for windows, its
    /// overlay unless turned off.
    func installVideoFilter() {
        videoFilter = VideoFilter(aspectModes: configuration.aspectModes, subtitleOverlay: configuration.subtitleOverlay)
        if let videoFilter { reel_set_object(pipeline.element, "video-filter", videoFilter.bin) }
        applySubtitleScale()
        applySubtitleTiming()
        videoFilter?.subtitles?.setPosition(subtitleDrawing.look.position)
        let bridge = self.bridge
        videoFilter?.subtitles?.onText = { text, at in
            MainQueue.shared.async { bridge?.player?.emit(.subtitle(text: text, position: at)) }
        }
        features.each("pipelineBuilt") { $0.pipelineBuilt(host: self) }
        subtitleDrawing.timeline = nil
        updateSubtitleOverlay()
    }

    /// Starts reading the current item's subtitle files off the main thread (`SubtitleReads`);
    /// `onSubtitlesRead` takes them. Until then the item's `tracks` event waits for them (they
    /// are among its tracks), so a reader sees one list, as when they were read here.
    func loadExternalSubtitles() {
        itemState.subtitles.files = []
        guard configuration.subtitleOverlay, videoFilter?.subtitles != nil, let uri = currentURI else {
            subtitleDrawing.reads.cancel()
            itemState.subtitles.pending = false
            return
        }
        itemState.subtitles.pending = true
        subtitleDrawing.reads.start(uri: uri, extra: configuration.preferences.subtitleFiles + itemState.subtitles.added) { [weak bridge] in
            MainQueue.shared.async { bridge?.player?.onSubtitlesRead() }
        }
    }

    /// Adds a subtitle file to the current item (mpv's `sub-add`, a file dropped on the window),
    /// listed after its tracks and shown once read (off the main thread, with the item's other
    /// files); a file that cannot be read is a `subtitle-file` warning. False when nothing is
    /// loaded or Reel draws no subtitles in this pipeline.
    @discardableResult
    public func addSubtitleFile(_ path: String) -> Bool {
        guard currentItem != nil, configuration.subtitleOverlay, videoFilter?.subtitles != nil, currentURI != nil else { return false }
        let full = (path as NSString).expandingTildeInPath
        if !itemState.subtitles.added.contains(full), !configuration.preferences.subtitleFiles.contains(full) { itemState.subtitles.added.append(full) }
        itemState.subtitles.showOnRead = full
        let files = itemState.subtitles.files
        loadExternalSubtitles()
        itemState.subtitles.files = files  // listed until the new read replaces them
        return true
    }

    /// The current item's subtitle files are read: listed as its tracks, one chosen to show now
    /// when the preferences allow it (none asked for, or the file's language is the one asked
    /// for), each that could not be read a warning.
    func onSubtitlesRead() {
        guard let (found, problems) = subtitleDrawing.reads.take() else { return }
        itemState.subtitles.pending = false
        itemState.subtitles.files = found
        let files = found.map(\.track)
        let wanted = configuration.preferences.subtitleLanguages + (trackMemory.languages.subtitle.map { [$0] } ?? [])
        if let chosen = TrackChoice.initial(files, slang: configuration.preferences.subtitleLanguages, previous: trackMemory.languages).subtitle,
           let track = files.first(where: { $0.id == chosen }),
           wanted.isEmpty || wanted.contains(where: { LanguageCode.matches(track.language, $0) }) {
            itemState.streams.trackChoice.subtitle = chosen
        }
        // Read after preroll (a large file): the preferences choose again, with the files.
        if !found.isEmpty, itemState.streams.preferredTracksApplied, itemState.subtitles.showOnRead == nil {
            itemState.streams.preferredTracksApplied = false
            applyPreferredTracks()
        }
        // A file added while playing is shown, as mpv's `sub-add` does.
        if let added = itemState.subtitles.showOnRead {
            itemState.subtitles.showOnRead = nil
            if let track = found.first(where: { $0.path == added })?.track {
                itemState.streams.trackChoice.subtitle = track.id
                subtitleDrawing.shown = true
                applyTrackChoice()
            }
        }
        updateSubtitleOverlay()
        for problem in problems { emit(.warning(problem)) }
        emitTracks()
    }

    /// The chosen subtitle file when it is shown.
    var shownSubtitleFile: ExternalSubtitle? {
        guard subtitlesShown, let id = itemState.streams.trackChoice.subtitle else { return nil }
        return itemState.subtitles.files.first { $0.track.id == id }
    }

    /// Gives the overlay the shown file's cues (or none); a paused frame is drawn again, unless
    /// `redraw` is false (a select-streams is under way: see `SelectThenSeek`).
    func updateSubtitleOverlay(redraw: Bool = true) {
        guard let overlay = videoFilter?.subtitles else { return }
        let timeline = shownSubtitleFile?.timeline
        guard timeline != subtitleDrawing.timeline else { return }
        subtitleDrawing.timeline = timeline
        overlay.show(timeline)
        if redraw { redrawPausedFrame() }
    }

    /// The subtitles' size factor, delay and position as they are now.
    public var subtitleLook: SubtitleAdjustments { subtitleDrawing.look }
    /// The subtitles' size factor (`SubtitleStyle`; `F`/`G`).
    public var subtitleScale: Double { subtitleDrawing.look.scale }
    /// Seconds the subtitles come later than their times (negative: earlier; `z`/`Z`).
    public var subtitleDelay: Double { subtitleDrawing.look.delay }
    /// Their vertical position, 0 top … 100 bottom … 150 (mpv's `sub-pos`; `r`/`R`).
    public var subtitlePosition: Int { subtitleDrawing.look.position }
    /// The text of the subtitles Reel draws now (files; nil when none is on screen).
    public var subtitleText: String? { videoFilter?.subtitles?.currentText }

    /// The subtitles' part of the snapshot: shown or not, their look, the text drawn now.
    func readSubtitles(into snapshot: inout PlaybackSnapshot) {
        snapshot.subtitlesShown = subtitlesShown
        snapshot.subtitleLook = subtitleLook
        snapshot.subtitleText = subtitleText
    }

    /// Sets the subtitles' size factor (clamped to `SubtitleStyle.scaleRange`).
    public func setSubtitleScale(_ scale: Double) {
        adjustSubtitles(\.scale, to: SubtitleStyle.clampedScale(scale)) { _ in applySubtitleScale() }
    }

    /// Sets the subtitle delay (clamped to `SubtitleStyle.delayRange`), for files and the
    /// media's own subtitles alike; a paused frame shows it at once.
    public func setSubtitleDelay(_ delay: Double) {
        adjustSubtitles(\.delay, to: SubtitleStyle.clampedDelay(delay)) { _ in applySubtitleTiming() }
    }

    /// Sets the subtitles' vertical position (clamped to 0–150) for the subtitles Reel draws.
    public func setSubtitlePosition(_ position: Int) {
        adjustSubtitles(\.position, to: SubtitleStyle.clampedPosition(position)) { videoFilter?.subtitles?.setPosition($0) }
    }

    /// One adjustment of the subtitles' look: kept, applied, and shown at once on a paused frame;
    /// nothing when it is already so.
    private func adjustSubtitles<Value: Equatable>(_ key: WritableKeyPath<SubtitleAdjustments, Value>, to value: Value, apply: (Value) -> Void) {
        guard subtitleDrawing.look[keyPath: key] != value else { return }
        subtitleDrawing.look[keyPath: key] = value
        apply(value)
        redrawPausedFrame()
    }

    /// The delay on the overlay's cues and on playbin3's own text stream (`text-offset`, ns).
    func applySubtitleTiming() {
        reel_set_int64(pipeline.element, "text-offset", gint64(subtitleDelay * 1e9))
        videoFilter?.subtitles?.setDelay(subtitleDelay)
    }

    func applySubtitleScale() {
        let font = SubtitleStyle.fontDescription(scale: subtitleScale)
        reel_set_string(pipeline.element, "subtitle-font-desc", font)
        videoFilter?.subtitles?.setScale(subtitleScale)
    }
}
