import Foundation
import CGStreamer
import CReelFrame
import ReelCore

/// The item's tracks as one component: its audio, video and subtitle streams listed from
/// playbin3's stream collection, then the subtitle files beside it (`Tracks+SubtitleFiles`);
/// the choice among them (`TrackChoice`: the preferences, the previous item's languages, the
/// user's `#`/`j`/menu), applied with select-streams and confirmed by STREAMS_SELECTED; and
/// whether subtitles show (`v`). It owns all of that state; the bus reaches it only through the
/// hooks (`streamCollection`, `streamsSelected`, `readying`, `streamStarted`, `itemEnding`, `tick`).
@MainActor
final class Tracks: PlayerFeature {
    /// The item's streams, the choice among them and what playbin3 plays.
    var streams = ItemStreams()
    /// The item's subtitle files (read off the main thread) and the files added while it plays.
    var files = ItemSubtitles()
    /// The stream collections and the languages last chosen (kept across items).
    var memory = TrackMemory()
    /// Whether the chosen subtitle track is shown (`v`); kept across items.
    var shown = true
    /// The cues the overlay was given last (nil: none).
    var overlayTimeline: SubtitleTimeline?
    /// The second file drawn at the top (`Tracks+Secondary`).
    var secondary = SecondarySubtitles()
    let reads = SubtitleReads()
    /// The player whose files are being read (the answer comes back on the main loop).
    weak var readingHost: (any FeatureHost)?
    var preferences = PlaybackPreferences()
    /// Whether Reel draws subtitle files in this player (`PlayerConfiguration.subtitleOverlay`).
    var drawsFiles = true

    func configure(_ configuration: PlayerConfiguration) {
        preferences = configuration.preferences
        drawsFiles = configuration.subtitleOverlay
    }

    func readout(into snapshot: inout PlaybackSnapshot, host: FeatureHost) {
        snapshot.tracks = all
        snapshot.selectedStreams = selectedTrackIDs
        snapshot.audioTrack = streams.trackChoice.audio
        snapshot.subtitleTrack = streams.trackChoice.subtitle
        snapshot.subtitlesShown = shown
        snapshot.secondarySubtitleTrack = shownSecondary?.track.id
    }

    // MARK: The item's life

    func itemStarted(_ item: PlaybackItem, switched: Bool, host: FeatureHost) {
        if switched {
            // A gapless switch: what playbin3 selected for the item before its STREAM_START, if anything.
            let next = streams.nextSelectedStreams
            streams = ItemStreams()
            streams.selectedStreams = next ?? []
            streams.defaultSelection = next
            files = ItemSubtitles()
            return  // its collection and files come with its stream (`streamStarted`)
        }
        forgetItem(host: host)
        loadFiles(host: host)
    }

    func itemUnloaded(host: FeatureHost) {
        reads.cancel()
        forgetItem(host: host)
    }

    /// Nothing of the last item stays: its tracks, files, collections and the overlay's cues.
    private func forgetItem(host: FeatureHost) {
        streams = ItemStreams()
        files = ItemSubtitles()
        memory.collection = nil
        memory.next = nil
        overlayTimeline = nil
        host.subtitleOverlay?.show(nil)
        secondary.timeline = nil
        host.secondarySubtitleOverlay?.show(nil)
    }

    func streamStarted(host: FeatureHost) {
        loadFiles(host: host)
        memory.collection = memory.next
        memory.next = nil
        if let collection = memory.collection { found(Self.tracks(in: collection.pointer), host: host) }
    }

    func pipelineBuilt(host: FeatureHost) {
        overlayTimeline = nil
        updateOverlay(host: host)
        secondary.timeline = nil
        updateSecondary(host: host)
    }

    func streamCollection(_ collection: StreamCollectionRef, nextItem: Bool, host: FeatureHost) {
        if nextItem {  // kept for its STREAM_START (playbin3 posts it before or after that)
            memory.next = collection
            return
        }
        memory.collection = collection
        found(Self.tracks(in: collection.pointer), host: host)
    }

    func streamsSelected(_ ids: [String], nextItem: Bool, host: FeatureHost) {
        if nextItem {  // the next item's, before its STREAM_START
            streams.nextSelectedStreams = ids
            return
        }
        streams.sinksAwaitedUntil = nil  // playbin3 said it after all
        refresh(host: host)
        if streams.defaultSelection == nil, !ids.isEmpty { streams.defaultSelection = ids }
        if streams.redrawAfterSelection {
            streams.redrawAfterSelection = false
            host.redrawPausedFrame()  // the selection has settled: a flushing seek is safe now (`SelectThenSeek`)
        }
        guard ids != streams.selectedStreams else { return }
        streams.selectedStreams = ids
        if !host.isPrerolled { adoptSelection() }
        report(host: host)
    }

    /// After preroll, before the item is said ready: the preferred languages (`--alang`,
    /// `--slang`) and the previous item's languages choose among the tracks; nothing is sent
    /// when playbin3 already plays that.
    func readying(host: FeatureHost) {
        refresh(host: host)
        if streams.selectedStreams.isEmpty, !streams.tracks.isEmpty { readSelectionAtSinks(host: host); adoptSelection() }
        guard !all.isEmpty, !streams.preferredTracksApplied else { return }
        streams.preferredTracksApplied = true
        let preferred = TrackChoice.initial(all, alang: preferences.audioLanguages, slang: preferences.subtitleLanguages, previous: memory.languages)
        var choice = streams.trackChoice
        if !preferences.audioLanguages.isEmpty || memory.languages.audio != nil, let audio = preferred.audio { choice.audio = audio }
        if !preferences.subtitleLanguages.isEmpty || memory.languages.subtitle != nil || !files.files.isEmpty, let subtitle = preferred.subtitle {
            choice.subtitle = subtitle
        }
        streams.trackChoice = choice
        apply(host: host)
    }

    /// A short item can end before its tracks were reported: they are, now.
    func itemEnding(host: FeatureHost) { settleSelectionAtSinks(now: true, host: host) }

    func tick(host: FeatureHost) { settleSelectionAtSinks(now: false, host: host) }

    // MARK: What the item has and plays

    /// The item's tracks in the file's order, then its subtitle files.
    var all: [MediaTrack] { streams.tracks + files.files.map(\.track) }

    /// What plays and shows now: playbin3's streams, and the subtitle file drawn, if any.
    var selectedTrackIDs: [String] {
        streams.selectedStreams + (shownFile.map { [$0.track.id] } ?? []) + (shownSecondary.map { [$0.track.id] } ?? []).filter { $0 != shownFile?.track.id }
    }

    /// A gapless switch could not carry the current item's track choice: it plays other streams
    /// than playbin3 chose by itself (the user's choice, or one the preferences or the previous
    /// item's languages made), or `--alang`/`--slang` have a choice to make here (two audio
    /// tracks, any subtitles) that the next item needs made too. playbin3 1.22 takes no
    /// select-streams for the item a gapless switch goes to (it answers no STREAMS_SELECTED for
    /// that group), so the queue loads the next item at the end instead, where the choice is
    /// made again. Items with nothing to choose (one audio track, no subtitles) stay gapless.
    var choiceNeedsLoad: Bool {
        if !preferences.audioLanguages.isEmpty, streams.tracks.filter({ $0.kind == .audio }).count > 1 { return true }
        if !preferences.subtitleLanguages.isEmpty, streams.tracks.contains(where: { $0.kind == .subtitle }) { return true }
        guard let defaults = streams.defaultSelection else { return false }
        return Set(defaults) != Set(streams.selectedStreams)
    }

    func seekLanded(user: Bool, host: FeatureHost) {
        guard streams.selectionAfterSeek else { return }
        streams.selectionAfterSeek = false
        apply(host: host)
    }

    // MARK: The user's choice

    func selectAudio(_ id: String, host: FeatureHost) {
        guard all.contains(where: { $0.id == id && $0.kind == .audio }) else { return }
        streams.trackChoice.audio = id
        apply(host: host)
    }

    /// Shows the subtitle track `id`, or none (nil). Choosing one shows subtitles again.
    func selectSubtitle(_ id: String?, host: FeatureHost) {
        if let id, !all.contains(where: { $0.id == id && $0.kind == .subtitle }) { return }
        streams.trackChoice.subtitle = id
        if id != nil { shown = true }
        apply(host: host)
    }

    /// Shows or hides the chosen subtitles (kept chosen).
    func setShown(_ on: Bool, host: FeatureHost) {
        guard on != shown else { return }
        shown = on
        apply(host: host)
    }

    // MARK: Listing and selecting

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
    func refresh(host: FeatureHost) {
        guard let collection = memory.collection?.pointer else { return }
        let found = Self.tracks(in: collection)
        guard found != streams.tracks, found.map(\.id) == streams.tracks.map(\.id) else { return }
        streams.tracks = found
        report(host: host)
    }

    /// A collection for the current item: the tracks are listed. playbin3's own first selection
    /// stands until the item has prerolled (`readying`): a select-streams sent while decodebin3
    /// is still exposing its streams deadlocks playbin3 1.22 (seen with a `suburi`: the main
    /// thread in send_event, a multiqueue thread waiting for decodebin3's lock). A gapless next
    /// item is not given select-streams either: playbin3 1.22 answered none for the new group (no
    /// STREAMS_SELECTED), so the choice could not be confirmed; it plays playbin3's default tracks.
    func found(_ tracks: [MediaTrack], host: FeatureHost) {
        guard tracks != streams.tracks else { return }
        streams.tracks = tracks
        if host.isPrerolled, streams.selectedStreams.isEmpty, !readSelectionAtSinks(host: host) {
            streams.sinksAwaitedUntil = host.now + 1
        }
        adoptSelection()
        report(host: host)
    }

    /// The item's streams that reached playsink, when playbin3 said nothing of them: 1.22 posts
    /// no STREAMS_SELECTED for the group a gapless switch goes to, and its `tracks` event then
    /// said `selected: false` for every track of an item that was playing. Those whose
    /// STREAM_START passed playsink's inputs (CReelFrame's stream log, watched from the first
    /// preroll on). True when one of each kind the item has (video, audio) was found: one input
    /// can lag behind the other, and the progress timer reads again until then
    /// (`settleSelectionAtSinks`), the `tracks` event waiting.
    @discardableResult
    func readSelectionAtSinks(host: FeatureHost) -> Bool {
        let tracks = streams.tracks, pipeline = host.pipelineElement
        reel_stream_log_watch(pipeline)
        let playing = tracks.filter { !$0.isExternal && reel_stream_log_saw(pipeline, $0.id) != 0 }.map(\.id)
        if !playing.isEmpty {
            streams.selectedStreams = playing
            streams.defaultSelection = playing
        }
        let kinds = Set(tracks.filter { playing.contains($0.id) }.map(\.kind))
        let complete = [MediaTrack.Kind.video, .audio].allSatisfy { kind in kinds.contains(kind) || !tracks.contains { $0.kind == kind } }
        Log.debug(.engine, .info, "no STREAMS_SELECTED for the item: \(playing.count) streams at playsink\(complete ? "" : ", one kind still to come")")
        return complete
    }

    /// While a selection read at the sinks lacks a kind: read again, and once it is whole (or a
    /// second has passed, or the item ends: `now`) report the tracks.
    func settleSelectionAtSinks(now: Bool, host: FeatureHost) {
        guard let until = streams.sinksAwaitedUntil else { return }
        guard readSelectionAtSinks(host: host) || now || host.now >= until else { return }
        streams.sinksAwaitedUntil = nil
        adoptSelection()
        report(host: host)
    }

    /// The choice follows what playbin3 plays (its default selection, or a change it made).
    func adoptSelection() {
        let playing = Set(streams.selectedStreams), tracks = all
        if let audio = tracks.first(where: { $0.kind == .audio && playing.contains($0.id) }) { streams.trackChoice.audio = audio.id }
        let external = tracks.contains { $0.id == streams.trackChoice.subtitle && $0.isExternal }
        if shown, !external { streams.trackChoice.subtitle = tracks.first { $0.kind == .subtitle && playing.contains($0.id) }?.id }
    }

    /// Asks playbin3 for the chosen streams (when that differs from what it plays) and reports.
    func apply(host: FeatureHost) {
        let choice = streams.trackChoice, tracks = all
        let audio = tracks.first { $0.id == choice.audio }, subtitle = tracks.first { $0.id == choice.subtitle }
        memory.languages = (audio?.language ?? memory.languages.audio, subtitle?.language)
        let wanted = choice.streamIDs(tracks, subtitlesShown: shown)
        let selecting = !wanted.isEmpty && Set(wanted) != Set(streams.selectedStreams)
        // Never while a flushing seek re-prerolls a paused pipeline (the redraw after the last
        // selection, or the user's): decodebin3 1.22 then holds the event for a sink waiting in
        // preroll, playbin3 its lock, and every property read on the main thread with them (two
        // choices in a row while paused, caught with gdb). Sent once the seek lands.
        if selecting, host.isSeeking, host.pipelineIsPaused {
            streams.selectionAfterSeek = true
            report(host: host)
            return
        }
        if selecting {
            Log.debug(.engine, .debug, "select-streams \(wanted)")
            Self.sendSelectStreams(wanted, to: host.pipelineElement)
        }
        updateOverlay(redraw: !selecting, host: host)
        if selecting, host.pipelineIsPaused { streams.redrawAfterSelection = true }
        report(host: host)
    }

    /// select-streams goes to playbin3 on a serial queue of its own, never from the main thread:
    /// the event waits for a streaming thread's lock, which a sink holding a 600 s audio delay (or
    /// any stalled preroll) keeps; sent from the main loop it froze the whole player (the socket's
    /// `cycle audio-track` after `add audio-delay 1e19`, caught with gdb). STREAMS_SELECTED on the
    /// bus says what plays, as before.
    private static let selection = DispatchQueue(label: "reel-select-streams")

    private static func sendSelectStreams(_ ids: [String], to element: UnsafeMutablePointer<GstElement>) {
        struct Held: @unchecked Sendable { let element: UnsafeMutablePointer<GstElement> }
        gst_object_ref(element)
        let held = Held(element: element)
        selection.async {
            var copies = ids.map { strdup($0) }
            defer { for p in copies { free(p) } }
            _ = copies.withUnsafeMutableBufferPointer { buffer in
                buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<gchar>?.self, capacity: buffer.count) {
                    reel_select_streams(held.element, $0, guint(buffer.count))
                }
            }
            gst_object_unref(held.element)
        }
    }

    /// Reports the tracks once what plays is known: a collection arrives before playbin3's
    /// STREAMS_SELECTED, and a report then said `selected: false` for every track of a plain file.
    /// From the selection (or the preroll, whichever comes first) on, every change is reported.
    func report(host: FeatureHost) {
        guard !streams.selectedStreams.isEmpty || host.isPrerolled, !files.pending, streams.sinksAwaitedUntil == nil else { return }
        let report = (tracks: all, selected: selectedTrackIDs, shown: shown)
        // The same selection in another order (STREAMS_SELECTED's, then the sinks') is no change.
        if let last = streams.reportedTracks, last.tracks == report.tracks, Set(last.selected) == Set(report.selected),
           last.shown == report.shown { return }
        streams.reportedTracks = report
        host.emit(.tracks(report.tracks, selected: report.selected, subtitlesShown: report.shown))
    }
}

/// The item's audio, subtitle and video tracks (its stream collection), the choice among them
/// and the stream ids playbin3 says it plays (STREAMS_SELECTED).
struct ItemStreams {
    var tracks: [MediaTrack] = []
    var trackChoice = TrackChoice()
    var selectedStreams: [String] = []
    /// What playbin3 selected for the item by itself (its first STREAMS_SELECTED): a choice other
    /// than that cannot be carried into a gapless switch (`Tracks.choiceNeedsLoad`).
    var defaultSelection: [String]?
    /// The preferred languages were applied (once per item, after it started).
    var preferredTracksApplied = false
    /// What playbin3 selected for the next item before its STREAM_START (gapless).
    var nextSelectedStreams: [String]?
    /// The last `tracks` event sent for the item (one event per change, never twice the same).
    var reportedTracks: (tracks: [MediaTrack], selected: [String], shown: Bool)?
    /// A paused frame waits to be drawn again until playbin3 confirms a select-streams
    /// (`SelectThenSeek` in Workarounds/).
    var redrawAfterSelection = false
    /// A choice made while a seek was in flight, sent once it lands.
    var selectionAfterSeek = false
    /// The selection read at playsink lacks a kind (`Tracks.readSelectionAtSinks`): read again
    /// until then (monotonic seconds), the `tracks` event waiting.
    var sinksAwaitedUntil: Double?
}

/// The current item's stream collections and the languages last chosen.
struct TrackMemory {
    /// The current item's last stream collection.
    var collection: StreamCollectionRef?
    /// The next item's collection when it came before that item's STREAM_START (gapless).
    var next: StreamCollectionRef?
    /// The languages last chosen: a next item with tracks in them keeps them.
    var languages: (audio: String?, subtitle: String?) = (nil, nil)
}

/// A reference to a stream collection (its streams' tags are read again later): one owner,
/// released when replaced.
final class StreamCollectionRef {
    let pointer: UnsafeMutablePointer<GstStreamCollection>

    /// Takes a new reference.
    init(_ collection: UnsafeMutablePointer<GstStreamCollection>) {
        gst_object_ref(collection)
        pointer = collection
    }

    deinit { gst_object_unref(pointer) }
}
