import ReelCore

/// What the control bar's tracks menu shows, from the view state: an "Audio" section (when there
/// is more than one audio track) and a "Subtitles" section (None, then each track; files beside
/// the media too), a "Secondary subtitles" section when there are subtitle files (None, then each
/// file: drawn at the top), the chosen entries, and the button's text ("en · sub fr", "2 · sub
/// off"). Pure: table-tested. Choices are "audio:<id>", "subtitle:<id>", "secondary:<id>" and
/// "subtitle:", "secondary:" (none).
enum TrackMenuContent {
    static func make(_ state: PlayerViewState) -> (sections: [ChoiceMenu.Section], chosen: Set<String>, label: String) {
        let audio = state.tracks.filter { $0.kind == .audio }
        let subtitles = state.tracks.filter { $0.kind == .subtitle }
        var sections: [ChoiceMenu.Section] = []
        if audio.count > 1 {
            sections.append(ChoiceMenu.Section(heading: tr("Audio"), entries: audio.enumerated().map { i, t in
                QualityEntry(label: t.label(number: i + 1), choice: "audio:\(t.id)")
            }))
        }
        if !subtitles.isEmpty {
            sections.append(ChoiceMenu.Section(heading: tr("Subtitles"), entries: [QualityEntry(label: tr("None"), choice: "subtitle:")]
                + subtitles.enumerated().map { i, t in QualityEntry(label: t.label(number: i + 1), choice: "subtitle:\(t.id)") }))
        }
        // A second subtitle file at the top (mpv's secondary-sid): files only, Reel draws them.
        let files = subtitles.filter(\.isExternal)
        if !files.isEmpty {
            sections.append(ChoiceMenu.Section(heading: tr("Secondary subtitles"), entries: [QualityEntry(label: tr("None"), choice: "secondary:")]
                + files.map { t in QualityEntry(label: t.label(number: (subtitles.firstIndex(of: t) ?? 0) + 1), choice: "secondary:\(t.id)") }))
        }
        let shownSubtitle = state.subtitlesShown ? state.subtitleTrack : nil
        var chosen: Set<String> = ["audio:\(state.audioTrack ?? "")", "subtitle:\(shownSubtitle ?? "")"]
        if !files.isEmpty { chosen.insert("secondary:\(state.secondarySubtitleTrack ?? "")") }
        func short(_ track: MediaTrack?, in list: [MediaTrack]) -> String? {
            guard let track else { return nil }
            return track.language ?? list.firstIndex(of: track).map { "\($0 + 1)" }
        }
        let audioText = short(audio.first { $0.id == state.audioTrack }, in: audio)
        let subtitleText = subtitles.isEmpty ? nil : "sub " + (short(subtitles.first { $0.id == shownSubtitle }, in: subtitles) ?? "off")
        let label = [audio.count > 1 ? audioText : nil, subtitleText].compactMap { $0 }.joined(separator: " · ")
        return (sections, chosen, label)
    }

    /// The action for a chosen entry.
    static func action(_ choice: String) -> UIAction {
        if choice.hasPrefix("audio:") { return .selectAudioTrack(String(choice.dropFirst(6))) }
        if choice.hasPrefix("secondary:") {
            let id = String(choice.dropFirst("secondary:".count))
            return .selectSecondarySubtitleTrack(id.isEmpty ? nil : id)
        }
        let id = String(choice.dropFirst("subtitle:".count))
        return .selectSubtitleTrack(id.isEmpty ? nil : id)
    }
}
