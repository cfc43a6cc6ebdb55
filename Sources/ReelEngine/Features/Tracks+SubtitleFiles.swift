import CGStreamer
import Foundation
import ReelCore
import ReelGLib

/// The item's subtitle files (beside a local file, `--sub-file`, added while it plays): read
/// off the main thread at each item's start, listed as subtitle tracks after the item's own,
/// drawn by the video filter's overlay (`SubtitleOverlay`) when chosen and shown.
extension Tracks {
    /// Starts reading the current item's subtitle files off the main thread (`SubtitleReads`);
    /// `filesRead` takes them. Until then the item's `tracks` event waits for them (they are
    /// among its tracks), so a reader sees one list.
    func loadFiles(host: FeatureHost) {
        files.files = []
        guard drawsFiles, host.subtitleOverlay != nil, let uri = host.currentURI else {
            reads.cancel()
            files.pending = false
            return
        }
        files.pending = true
        readingHost = host
        // The item's own (`sub-file` options: a web page's subtitles, fetched by the yt-dlp helper).
        let own = host.currentItem?.options["sub-file"] ?? []
        reads.start(uri: uri, extra: preferences.subtitleFiles + own + files.added) { [self] in
            MainQueue.shared.async { self.filesRead() }
        }
    }

    /// Adds a subtitle file to the current item (mpv's `sub-add`, a file dropped on the window),
    /// listed after its tracks and shown once read (with the item's other files). False when
    /// nothing is loaded or Reel draws no subtitles in this pipeline.
    func addFile(_ path: String, host: FeatureHost) -> Bool {
        guard host.currentItem != nil, drawsFiles, host.subtitleOverlay != nil, host.currentURI != nil else { return false }
        let full = (path as NSString).expandingTildeInPath
        if !files.added.contains(full), !preferences.subtitleFiles.contains(full) { files.added.append(full) }
        files.showOnRead = full
        let listed = files.files
        loadFiles(host: host)
        files.files = listed  // listed until the new read replaces them
        return true
    }

    /// The current item's subtitle files are read: listed as its tracks, one chosen to show now
    /// when the preferences allow it (none asked for, or the file's language is the one asked
    /// for), each that could not be read a warning.
    func filesRead() {
        guard let host = readingHost, let (found, problems) = reads.take() else { return }
        Log.debug(.engine, .debug, "subtitle files read: \(found.count) (\(problems.count) not)")
        files.pending = false
        files.files = found
        let tracks = found.map(\.track)
        let wanted = preferences.subtitleLanguages + (memory.languages.subtitle.map { [$0] } ?? [])
        if let chosen = TrackChoice.initial(tracks, slang: preferences.subtitleLanguages, previous: memory.languages).subtitle,
           let track = tracks.first(where: { $0.id == chosen }),
           wanted.isEmpty || wanted.contains(where: { LanguageCode.matches(track.language, $0) }) {
            streams.trackChoice.subtitle = chosen
        }
        // Read after preroll (a large file): the preferences choose again, with the files.
        if !found.isEmpty, streams.preferredTracksApplied, files.showOnRead == nil {
            streams.preferredTracksApplied = false
            readying(host: host)
        }
        // A file added while playing is shown, as mpv's `sub-add` does.
        if let added = files.showOnRead {
            files.showOnRead = nil
            if let track = found.first(where: { $0.path == added })?.track {
                streams.trackChoice.subtitle = track.id
                shown = true
                apply(host: host)
            }
        }
        updateOverlay(host: host)
        updateSecondary(host: host)
        for problem in problems { host.emit(.warning(problem)) }
        report(host: host)
    }

    /// The chosen subtitle file when it is shown.
    var shownFile: ExternalSubtitle? {
        guard shown, let id = streams.trackChoice.subtitle else { return nil }
        return files.files.first { $0.track.id == id }
    }

    /// Gives the overlay the shown file's cues (or none); a paused frame is drawn again, unless
    /// `redraw` is false (a select-streams is under way: see `SelectThenSeek`).
    func updateOverlay(redraw: Bool = true, host: FeatureHost) {
        guard let overlay = host.subtitleOverlay else { return }
        let timeline = shownFile?.timeline
        guard timeline != overlayTimeline else { return }
        overlayTimeline = timeline
        overlay.show(timeline)
        if redraw { host.redrawPausedFrame() }
    }
}

/// Subtitle files read for the item (beside it, `--sub-file`), listed after its own tracks.
struct ItemSubtitles {
    var files: [ExternalSubtitle] = []
    /// Its subtitle files are being read (`SubtitleReads`): its `tracks` event waits.
    var pending = false
    /// Files added while it plays (`Player.addSubtitleFile`: mpv's `sub-add`, a drop), and the
    /// one to show once read.
    var added: [String] = []
    var showOnRead: String?
}

/// The player's tracks, as its API says them (the `Tracks` feature holds them).
extension Player {
    private var trackFeature: Tracks? { features.first(Tracks.self) }

    /// The current item's tracks (video, audio, subtitle), in the file's order, then its
    /// external subtitle files.
    public var tracks: [MediaTrack] { trackFeature?.all ?? [] }
    /// The stream ids playbin3 plays now.
    public var selectedStreamIDs: [String] { trackFeature?.streams.selectedStreams ?? [] }
    /// What plays and shows now: playbin3's streams, and the subtitle file drawn, if any.
    public var selectedTrackIDs: [String] { trackFeature?.selectedTrackIDs ?? [] }
    public var audioTrack: String? { trackFeature?.streams.trackChoice.audio }
    public var subtitleTrack: String? { trackFeature?.streams.trackChoice.subtitle }
    /// Whether the chosen subtitle track is shown (`v`).
    public var subtitlesShown: Bool { trackFeature?.shown ?? true }
    /// See `Tracks.choiceNeedsLoad`. Also after the current item fell back to software decoding:
    /// a gapless switch would carry the software-only ranks (and often the decoder) into the next
    /// item, which must try its hardware decoder afresh on a load of its own (once per item; the
    /// fallback's switch-or-load was a race under load, CI).
    public var trackChoiceNeedsLoad: Bool {
        (trackFeature?.choiceNeedsLoad ?? false) || (currentItem.map { features.first(HardwareDecoders.self)?.mayFallBack($0) == false } ?? false)
    }

    /// Plays the audio track `id` (one of `tracks`).
    public func selectAudioTrack(_ id: String) { trackFeature?.selectAudio(id, host: self) }
    /// Shows the subtitle track `id`, or none (nil). Choosing one shows subtitles again.
    public func selectSubtitleTrack(_ id: String?) { trackFeature?.selectSubtitle(id, host: self) }

    public func cycleAudioTrack() {
        if let next = TrackChoice.nextAudio(after: audioTrack, in: tracks) { selectAudioTrack(next) }
    }

    public func cycleSubtitleTrack() { selectSubtitleTrack(TrackChoice.nextSubtitle(after: subtitleTrack, in: tracks)) }

    /// Shows or hides the chosen subtitles (kept chosen).
    public func setSubtitlesShown(_ shown: Bool) { trackFeature?.setShown(shown, host: self) }

    /// Adds a subtitle file to the current item (`Tracks.addFile`); a file that cannot be read
    /// is a `subtitle-file` warning.
    @discardableResult
    public func addSubtitleFile(_ path: String) -> Bool { trackFeature?.addFile(path, host: self) ?? false }
}
