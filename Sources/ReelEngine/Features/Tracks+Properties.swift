import ReelCore

/// The tracks' properties and commands, as the `Tracks` feature declares them: mpv's
/// `audio-track` and `subtitle-track` (an index among the tracks of that kind; `no`: none),
/// `sub-visibility`, the list `tracks`, the text on screen `sub-text`, and `sub-add`.
extension Tracks {
    func properties(host: FeatureHost) -> [Property] {
        func index(_ kind: MediaTrack.Kind, _ s: PlaybackSnapshot) -> JSONValue {
            let chosen = kind == .audio ? s.audioTrack : s.subtitleTrack
            return .optional(s.tracks.filter { $0.kind == kind }.firstIndex { $0.id == chosen })
        }
        func track(_ kind: MediaTrack.Kind) -> Property {
            let name = kind == .audio ? "audio-track" : "subtitle-track"
            var p = Property.optionalNumber(name, NumberSpec(range: (kind == .audio ? 0 : -1)...Double(Int32.max), whole: true, none: kind == .audio ? nil : "no"),
                                            "The \(kind.rawValue) track playing, by its index among them (see tracks)\(kind == .audio ? "" : "; no: none").",
                                            get: { index(kind, $0) }) { value in
                let ofKind = self.all.filter { $0.kind == kind }
                let index: Int? = value.map { Int($0) }
                switch index {
                case .none, .some(-1):
                    guard kind == .subtitle else { throw IPCError(.invalidArgument, "“audio-track” takes a track index from “tracks”.") }
                    self.selectSubtitle(nil, host: host)
                case let i? where ofKind.indices.contains(i):
                    if kind == .audio { self.selectAudio(ofKind[i].id, host: host) } else { self.selectSubtitle(ofKind[i].id, host: host) }
                default:
                    throw IPCError(.unavailable, "There is no such \(kind.rawValue) track (see “tracks”).")
                }
            }
            p.cycle = { (_: Bool) in
                let tracks = self.all
                guard tracks.contains(where: { $0.kind == kind }) else { throw IPCError(.unavailable, "There is no track to cycle to.") }
                if kind == .audio {
                    if let next = TrackChoice.nextAudio(after: self.streams.trackChoice.audio, in: tracks) { self.selectAudio(next, host: host) }
                } else {
                    self.selectSubtitle(TrackChoice.nextSubtitle(after: self.streams.trackChoice.subtitle, in: tracks), host: host)
                }
            }
            return p
        }
        return [
            .value("tracks", "The item's tracks: index, id, type, language, title, selected, external.", get: { EventEncoder.trackList($0.tracks, selected: $0.selectedStreams) }),
            .value("track-list", "mpv's track list: id (from 1 in each type), type (video, audio, sub), lang, title, selected, external, src-id.",
                   get: { EventEncoder.mpvTrackList($0.tracks, selected: $0.selectedStreams) }),
            track(.audio),
            track(.subtitle),
            .flag("sub-visibility", "The chosen subtitles are shown.", get: { $0.subtitlesShown }) { self.setShown($0, host: host) },
            .text("sub-text", "The subtitle text on screen now.", get: { $0.subtitleText }),
        ] + secondaryProperties(host: host)
    }

    func commands(host: FeatureHost) -> [(name: String, run: IPCCommandRegistry.Command)] {
        [("sub-add", { args in
            guard (1...2).contains(args.count), let path = args[0].ipcString, !path.isEmpty else { throw IPCError(.invalidArgument, "“sub-add” takes a subtitle file's path.") }
            guard self.addFile(path, host: host) else {
                throw IPCError(.unavailable, "Nothing is loaded (or this session draws no subtitles): the file was not added.")
            }
            return .null
        })]
    }
}
