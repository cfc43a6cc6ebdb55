import CGStreamer
import CReelFrame
import ReelCore

/// Audio and subtitle tracks: listed from playbin3's stream collection, chosen by `TrackChoice`
/// (preferences, the previous item's languages, the user's `#`/`j`/menu), applied with
/// select-streams, confirmed by STREAMS_SELECTED; subtitles shown or hidden (`v`) by selecting the
/// text stream or not.
extension Player {
    /// The current item's tracks (video, audio, subtitle), in the file's order, then its
    /// external subtitle files.
    public var tracks: [MediaTrack] { itemState.streams.tracks + itemState.subtitles.files.map(\.track) }
    /// The stream ids playbin3 plays now.
    public var selectedStreamIDs: [String] { itemState.streams.selectedStreams }
    /// What plays and shows now: playbin3's streams, and the subtitle file drawn, if any.
    public var selectedTrackIDs: [String] { itemState.streams.selectedStreams + (shownSubtitleFile.map { [$0.track.id] } ?? []) }
    public var audioTrack: String? { itemState.streams.trackChoice.audio }

    /// The tracks' part of the snapshot: every track, the streams playing, the chosen ones.
    func readTracks(into snapshot: inout PlaybackSnapshot) {
        snapshot.tracks = tracks
        snapshot.selectedStreams = selectedTrackIDs
        snapshot.audioTrack = audioTrack
        snapshot.subtitleTrack = subtitleTrack
    }
    /// A gapless switch could not carry the current item's track choice: it plays other streams
    /// than playbin3 chose by itself (the user's choice, or one the preferences or the previous
    /// item's languages made), or `--alang`/`--slang` have a choice to make here (two audio
    /// tracks, any subtitles) that the next item needs made too. playbin3 1.22 takes no
    /// select-streams for the item a gapless switch goes to (it answers no STREAMS_SELECTED for
    /// that group), so the queue loads the next item at the end instead, where the choice is
    /// made again. Items with nothing to choose (one audio track, no subtitles) stay gapless.
    public var trackChoiceNeedsLoad: Bool {
        if !configuration.preferences.audioLanguages.isEmpty, itemState.streams.tracks.filter({ $0.kind == .audio }).count > 1 { return true }
        if !configuration.preferences.subtitleLanguages.isEmpty, itemState.streams.tracks.contains(where: { $0.kind == .subtitle }) { return true }
        guard let defaults = itemState.streams.defaultSelection else { return false }
        return Set(defaults) != Set(itemState.streams.selectedStreams)
    }
    public var subtitleTrack: String? { itemState.streams.trackChoice.subtitle }

    /// Plays the audio track `id` (one of `tracks`).
    public func selectAudioTrack(_ id: String) {
        guard tracks.contains(where: { $0.id == id && $0.kind == .audio }) else { return }
        itemState.streams.trackChoice.audio = id
        applyTrackChoice()
    }

    /// Shows the subtitle track `id`, or none (nil). Choosing one shows subtitles again.
    public func selectSubtitleTrack(_ id: String?) {
        if let id, !tracks.contains(where: { $0.id == id && $0.kind == .subtitle }) { return }
        itemState.streams.trackChoice.subtitle = id
        if id != nil { subtitleDrawing.shown = true }
        applyTrackChoice()
    }

    public func cycleAudioTrack() {
        if let next = TrackChoice.nextAudio(after: audioTrack, in: tracks) { selectAudioTrack(next) }
    }

    public func cycleSubtitleTrack() { selectSubtitleTrack(TrackChoice.nextSubtitle(after: subtitleTrack, in: tracks)) }

    /// Shows or hides the chosen subtitles (kept chosen).
    public func setSubtitlesShown(_ shown: Bool) {
        guard shown != subtitlesShown else { return }
        subtitleDrawing.shown = shown
        applyTrackChoice()
    }

    /// The tracks of a stream collection (the item's own).
    static func tracks(in collection: UnsafeMutablePointer<GstStreamCollection>) -> [MediaTrack] {
        var found: [MediaTrack] = []
        for i in 0..<gst_stream_collection_get_size(collection) {
            guard let stream = gst_stream_collection_get_stream(collection, i), let cid = reel_stream_id(stream) else { continue }
            let type = reel_stream_type(stream).rawValue
            let kind: MediaTrack.Kind
            if type & GST_STREAM_TYPE_VIDEO.rawValue != 0 { kind = .video }
            else if type & GST_STREAM_TYPE_AUDIO.rawValue != 0 { kind = .audio }
            else if type & GST_STREAM_TYPE_TEXT.rawValue != 0 { kind = .subtitle }
            else { continue }
            func tag(_ name: String) -> String? {
                reel_stream_tag_string(stream, name).map { p in defer { g_free(p) }; return String(cString: p) }
            }
            let id = String(cString: cid)
            // HLS's LANGUAGE "en-US" is no ISO 639 code: GStreamer keeps it as a language name.
            let language = (tag("language-code") ?? tag("language-name").flatMap { LanguageCode.isTag($0) ? $0 : nil })
                .map(LanguageCode.withoutReelSubtag)
            // An HLS rendition has no title tag: its NAME is in the stream id (`renditionName`).
            let title = tag("title") ?? MediaTrack.renditionName(streamID: id, kind: kind, language: language)
            found.append(MediaTrack(id: id, kind: kind, language: language, title: title))
        }
        return found
    }

    /// Tags (language, title) reach a stream after its collection was posted, often: the tracks
    /// are read again from the item's last collection at preroll and when the selection changes.
    func refreshTracks() {
        guard let collection = trackMemory.collection?.pointer else { return }
        let found = Self.tracks(in: collection)
        guard found != itemState.streams.tracks, found.map(\.id) == itemState.streams.tracks.map(\.id) else { return }
        itemState.streams.tracks = found
        emitTracks()
    }

    /// A collection for the current item: the tracks are listed. playbin3's own first selection
    /// stands until the item has prerolled (`applyPreferredTracks`): a select-streams sent while
    /// decodebin3 is still exposing its streams deadlocks playbin3 1.22 (seen with a `suburi`:
    /// the main thread in send_event, a multiqueue thread waiting for decodebin3's lock).
    func tracksFound(_ found: [MediaTrack]) {
        guard found != itemState.streams.tracks else { return }
        itemState.streams.tracks = found
        if prerolled, itemState.streams.selectedStreams.isEmpty, !readSelectionAtSinks() {
            itemState.streams.sinksAwaitedUntil = Self.monotonicSeconds + 1
        }
        adoptSelection()
        emitTracks()
        // A gapless next item is not given select-streams: playbin3 1.22 answered none for the
        // new group (no STREAMS_SELECTED), so the choice could not be confirmed; it plays
        // playbin3's default tracks.
    }

    /// The item's streams that reached playsink, when playbin3 said nothing of them: 1.22 posts
    /// no STREAMS_SELECTED for the group a gapless switch goes to, and its `tracks` event then
    /// said `selected: false` for every track of an item that was playing. Those whose
    /// STREAM_START passed playsink's inputs (CReelFrame's stream log, watched from the first
    /// preroll on). True when one of each kind the item has (video, audio) was found: one input
    /// can lag behind the other, and the progress timer reads again until then
    /// (`settleSelectionAtSinks`), the `tracks` event waiting.
    @discardableResult
    func readSelectionAtSinks() -> Bool {
        let tracks = itemState.streams.tracks
        reel_stream_log_watch(pipeline.element)
        let playing = tracks.filter { !$0.isExternal && reel_stream_log_saw(pipeline.element, $0.id) != 0 }.map(\.id)
        if !playing.isEmpty {
            itemState.streams.selectedStreams = playing
            itemState.streams.defaultSelection = playing
        }
        let kinds = Set(tracks.filter { playing.contains($0.id) }.map(\.kind))
        let complete = [MediaTrack.Kind.video, .audio].allSatisfy { kind in kinds.contains(kind) || !tracks.contains { $0.kind == kind } }
        Log.debug(.engine, .info, "no STREAMS_SELECTED for the item: \(playing.count) streams at playsink\(complete ? "" : ", one kind still to come")")
        return complete
    }

    /// At each timer tick while a selection read at the sinks lacks a kind: read again, and once
    /// it is whole (or a second has passed, or the item ends: `now`) report the tracks.
    func settleSelectionAtSinks(now: Bool = false) {
        guard let until = itemState.streams.sinksAwaitedUntil else { return }
        guard readSelectionAtSinks() || now || Self.monotonicSeconds >= until else { return }
        itemState.streams.sinksAwaitedUntil = nil
        adoptSelection()
        emitTracks()
    }

    /// After preroll: the preferred languages (`--alang`, `--slang`) and the previous item's
    /// languages choose among the tracks; nothing is sent when playbin3 already plays that.
    func applyPreferredTracks() {
        refreshTracks()
        if itemState.streams.selectedStreams.isEmpty, !itemState.streams.tracks.isEmpty { readSelectionAtSinks(); adoptSelection() }
        guard !tracks.isEmpty, !itemState.streams.preferredTracksApplied else { return }
        itemState.streams.preferredTracksApplied = true
        let preferred = TrackChoice.initial(tracks, alang: configuration.preferences.audioLanguages, slang: configuration.preferences.subtitleLanguages,
                                            previous: trackMemory.languages)
        var choice = itemState.streams.trackChoice
        if !configuration.preferences.audioLanguages.isEmpty || trackMemory.languages.audio != nil, let audio = preferred.audio { choice.audio = audio }
        let hasFiles = !itemState.subtitles.files.isEmpty
        if !configuration.preferences.subtitleLanguages.isEmpty || trackMemory.languages.subtitle != nil || hasFiles, let subtitle = preferred.subtitle {
            choice.subtitle = subtitle
        }
        itemState.streams.trackChoice = choice
        applyTrackChoice()
    }

    /// The choice follows what playbin3 plays (its default selection, or a change it made).
    func adoptSelection() {
        let playing = Set(itemState.streams.selectedStreams)
        if let audio = tracks.first(where: { $0.kind == .audio && playing.contains($0.id) }) { itemState.streams.trackChoice.audio = audio.id }
        let external = tracks.contains { $0.id == itemState.streams.trackChoice.subtitle && $0.isExternal }
        if subtitlesShown, !external { itemState.streams.trackChoice.subtitle = tracks.first { $0.kind == .subtitle && playing.contains($0.id) }?.id }
    }

    func onStreamsSelected(_ message: UnsafeMutablePointer<GstMessage>) {
        var ids: [String] = []
        for i in 0..<reel_streams_selected_count(message) {
            if let p = reel_streams_selected_id(message, i) { ids.append(String(cString: p)); g_free(p) }
        }
        if shared.state.withLock({ $0.switched != nil }) {  // the next item's, before its STREAM_START
            itemState.streams.nextSelectedStreams = ids
            return
        }
        itemState.streams.sinksAwaitedUntil = nil  // playbin3 said it after all
        refreshTracks()
        if itemState.streams.defaultSelection == nil, !ids.isEmpty { itemState.streams.defaultSelection = ids }
        if itemState.streams.redrawAfterSelection {
            itemState.streams.redrawAfterSelection = false
            redrawPausedFrame()  // the selection has settled: a flushing seek is safe now
        }
        guard ids != itemState.streams.selectedStreams else { return }
        itemState.streams.selectedStreams = ids
        if !prerolled { adoptSelection() }
        emitTracks()
    }

    /// Asks playbin3 for the chosen streams (when that differs from what it plays) and reports.
    func applyTrackChoice() {
        let choice = itemState.streams.trackChoice
        let audio = tracks.first { $0.id == choice.audio }, subtitle = tracks.first { $0.id == choice.subtitle }
        trackMemory.languages = (audio?.language ?? trackMemory.languages.audio, subtitle?.language)
        let wanted = choice.streamIDs(tracks, subtitlesShown: subtitlesShown)
        let selecting = !wanted.isEmpty && Set(wanted) != Set(itemState.streams.selectedStreams)
        if selecting {
            var copies = wanted.map { strdup($0) }
            defer { for p in copies { free(p) } }
            _ = copies.withUnsafeMutableBufferPointer { buffer in
                buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<gchar>?.self, capacity: buffer.count) {
                    reel_select_streams(pipeline.element, $0, guint(buffer.count))
                }
            }
        }
        updateSubtitleOverlay(redraw: !selecting)
        if selecting, pipelineState == .paused { itemState.streams.redrawAfterSelection = true }
        emitTracks()
    }

    /// Reports the tracks once what plays is known: a collection arrives before playbin3's
    /// STREAMS_SELECTED, and a report then said `selected: false` for every track of a plain file.
    /// From the selection (or the preroll, whichever comes first) on, every change is reported.
    func emitTracks() {
        guard !itemState.streams.selectedStreams.isEmpty || prerolled, !itemState.subtitles.pending,
              itemState.streams.sinksAwaitedUntil == nil else { return }
        let report = (tracks: tracks, selected: selectedTrackIDs, shown: subtitlesShown)
        // The same selection in another order (STREAMS_SELECTED's, then the sinks') is no change.
        if let last = itemState.streams.reportedTracks, last.tracks == report.tracks, Set(last.selected) == Set(report.selected),
           last.shown == report.shown { return }
        itemState.streams.reportedTracks = report
        emit(.tracks(report.tracks, selected: report.selected, subtitlesShown: report.shown))
    }
}

/// A reference to the current item's last stream collection (its streams' tags are read again
/// later): one owner, released when replaced.
final class StreamCollectionRef {
    let pointer: UnsafeMutablePointer<GstStreamCollection>

    /// Takes a new reference.
    init(_ collection: UnsafeMutablePointer<GstStreamCollection>) {
        gst_object_ref(collection)
        pointer = collection
    }

    deinit { gst_object_unref(pointer) }
}
