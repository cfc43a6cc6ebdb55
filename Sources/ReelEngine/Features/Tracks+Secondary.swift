import ReelCore

/// Secondary subtitles (mpv's `secondary-sid`, `secondary-sub-visibility`, `secondary-sub-delay`,
/// `secondary-sub-text`): a second subtitle file drawn at the top of the picture while the
/// primary is at the bottom, each on its own delay; for language learners. Reel draws subtitle
/// files itself (`SubtitleOverlay`), so the second is a file's track (beside the media, `--sub-file`,
/// `sub-add`). Its overlay is in the pipeline only once one is asked for: the item is then loaded
/// again where it was with the overlay in place (a user who never asks pays nothing).
struct SecondarySubtitles {
    /// The file track shown at the top ("file:N"), kept across items while the next has it.
    var id: String?
    var shown = true
    var delay = 0.0
    /// The cues the top overlay was given.
    var timeline: SubtitleTimeline?
}

extension Tracks {
    /// Whether pipelines are built with the top overlay.
    var secondaryWanted: Bool { secondary.id != nil }

    func secondaryProperties(host: FeatureHost) -> [Property] {
        [
            .optionalNumber("secondary-sid", NumberSpec(range: 1...Double(Int32.max), whole: true, none: "no"),
                            "The subtitle track drawn at the top besides the primary (a subtitle file's id in track-list; no: none).",
                            get: { _ in self.secondaryMPVID.map { JSONValue.int($0) } ?? .bool(false) }) { value in try self.selectSecondary(value.map(Int.init), host: host) },
            .flag("secondary-sub-visibility", "The secondary subtitles are shown.", get: { _ in self.secondary.shown }) { on in
                guard on != self.secondary.shown else { return }
                self.secondary.shown = on
                self.updateSecondary(host: host)
            },
            .number("secondary-sub-delay", NumberSpec(range: SubtitleStyle.delayRange, step: SubtitleStyle.delayStep, unit: "s"),
                    "Seconds the secondary subtitles come later (their own, beside sub-delay).", get: { _ in self.secondary.delay }) { delay in
                let clamped = SubtitleStyle.clampedDelay(delay)
                guard clamped != self.secondary.delay else { return }
                self.secondary.delay = clamped
                host.secondarySubtitleOverlay?.setClock(CueClock(delay: clamped, speed: 1))
                host.redrawPausedFrame()
            },
            .text("secondary-sub-text", "The secondary subtitle text on screen now.", get: { _ in host.secondarySubtitleOverlay?.currentText }),
        ]
    }

    /// The secondary track's id as mpv's track-list numbers subtitle tracks (from 1).
    private var secondaryMPVID: Int? {
        guard let id = secondary.id, let i = all.filter({ $0.kind == .subtitle }).firstIndex(where: { $0.id == id }) else { return nil }
        return i + 1
    }

    /// Chooses the secondary track by mpv's id (nil: none); only a subtitle file can be one.
    func selectSecondary(_ mpvID: Int?, host: FeatureHost) throws {
        guard let mpvID else {
            secondary.id = nil
            updateSecondary(host: host)
            return
        }
        let subtitles = all.filter { $0.kind == .subtitle }
        guard subtitles.indices.contains(mpvID - 1) else { throw IPCError(.unavailable, "There is no such subtitle track (see “track-list”).") }
        let track = subtitles[mpvID - 1]
        guard track.isExternal, drawsFiles else {
            throw IPCError(.unavailable, "Secondary subtitles are drawn from subtitle files (beside the media, --sub-file, sub-add), not from the media's own streams.")
        }
        secondary.id = track.id
        secondary.shown = true
        if host.secondarySubtitleOverlay == nil, let item = host.currentItem {
            Log.debug(.engine, .info, "secondary subtitles: \(track.id); loaded again with the top overlay")
            host.reload(item, at: host.reloadPosition)
            return
        }
        updateSecondary(host: host)
    }

    /// The secondary file when it is shown (and the pipeline draws it).
    var shownSecondary: ExternalSubtitle? {
        guard secondary.shown, let id = secondary.id else { return nil }
        return files.files.first { $0.track.id == id }
    }

    /// Gives the top overlay the secondary file's cues (or none) on its own clock; the `tracks`
    /// event says it is selected (mpv's track-list marks the secondary selected too).
    func updateSecondary(host: FeatureHost) {
        defer { report(host: host) }
        guard let overlay = host.secondarySubtitleOverlay else { return }
        let timeline = secondary.shown ? secondary.id.flatMap { id in files.files.first { $0.track.id == id }?.timeline } : nil
        guard timeline != secondary.timeline else { return }
        secondary.timeline = timeline
        overlay.setClock(CueClock(delay: secondary.delay, speed: 1))
        overlay.show(timeline)
        host.redrawPausedFrame()
    }
}
