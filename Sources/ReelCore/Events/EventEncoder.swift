import Foundation

/// The `--events` / IPC wire format: one JSON object per line. Documented in docs/EVENTS.md; QA scripts, UI tests and benchmarks build on it, so change it compatibly.
///
/// Every object starts with `"event"`, then `"t"` (seconds since the player started, 3 decimals),
/// then `"item"` (queue index, or null), then the event's own fields. Nothing secret is ever
/// included: URIs and error text pass through `Redactor`.
public enum EventEncoder {
    public static func json(_ event: PlayerEvent, item: Int?, time: Double) -> JSONValue {
        var fields: [(String, JSONValue)] = [("event", .string(event.name)), ("t", .double((time * 1000).rounded() / 1000)), ("item", .optional(item))]
        switch event {
        case .itemChanged(_, let uri, let title):
            fields += [("uri", .string(Redactor.redactURL(uri))), ("title", .optional(title))]
        case .status(let status):
            fields.append(("status", .string(status.name)))
            if case .failed(let error) = status { fields.append(("error", errorObject(error))) }
        case .timeControl(let tc):
            fields.append(("status", .string(tc.name)))
            if case .waitingToPlayAtSpecifiedRate(let reason) = tc {
                fields.append(("reason", .string(reason.name)))
                if case .buffering(let p) = reason { fields.append(("percent", .int(p))) }
            }
        case .duration(let d):
            fields.append(("duration", .optional(d)))
        case .mediaInfo(let info):
            fields += [("width", .optional(info.width)), ("height", .optional(info.height)),
                       ("videoCodec", .optional(info.videoCodec)), ("audioCodec", .optional(info.audioCodec)),
                       ("title", .optional(info.title)), ("live", .bool(info.isLive)), ("seekable", .bool(info.isSeekable)),
                       ("videoDecoder", .optional(info.videoDecoder)), ("audioDecoder", .optional(info.audioDecoder)),
                       ("hardware", .optional(info.hardwareDecoding))]
        case .progress(let position, let duration, let tick, let live):
            fields += [("position", .double(position)), ("duration", .optional(duration))]
            if tick != .fine { fields.append(("every", .int(tick == .tenSeconds ? 10 : 1))) }
            if let live { fields += liveFields(live) }
        case .seeked(let position):
            fields.append(("position", .double(position)))
        case .rate(let rate):
            fields.append(("rate", .double(rate)))
        case .volume(let volume, let muted):
            fields += [("volume", .double(volume)), ("muted", .bool(muted))]
        case .buffering(let percent):
            fields.append(("percent", .int(percent)))
        case .playedToEnd:
            fields.append(("reason", .string(EndReason.ended.rawValue)))
        case .error(let error):
            fields.append(("error", errorObject(error)))
        case .warning(let warning):
            fields.append(("warning", errorObject(warning)))
        case .retrying(let attempt, let delay, let error):
            fields += [("attempt", .int(attempt)), ("delay", .double(delay)), ("error", errorObject(error))]
        case .finished(let played, let failed, let reason):
            fields += [("played", .int(played)), ("failed", .int(failed)), ("reason", .string(reason.rawValue))]
        case .network(let state):
            fields += [("available", .bool(state.available)), ("metered", .bool(state.metered)),
                       ("connectivity", .string(state.connectivity.rawValue))]
        case .bitrateCap(let maxBitrate, let reason):
            fields += [("maxBitrate", maxBitrate.map { .int($0) } ?? .null), ("reason", .string(reason))]
        case .rendition(let index, let height, let bandwidth, let mode, let reason):
            fields += [("index", .optional(index)), ("height", .optional(height)), ("bandwidth", .optional(bandwidth)),
                       ("mode", .string(mode)), ("reason", .string(reason))]
        case .liveStart(let mode, let rule, let live):
            fields += [("mode", .string(mode.rawValue)), ("rule", .string(rule)), ("position", .double(rounded(live.position)))] + liveFields(live)
        case .liveProgramEnd(let end):
            fields.append(("programEnd", .string(ProgramDate.format(end))))
        case .resumed(let position):
            fields.append(("position", .double(rounded(position))))
        case .tracks(let tracks, let selected, let shown):
            fields.append(("tracks", trackList(tracks, selected: selected)))
            fields.append(("subtitles", .bool(shown)))
        case .audioFocus(let held):
            fields.append(("held", .bool(held)))
        case .subtitle(let text, let position):
            fields += [("text", .optional(text)), ("position", .optional(position.map(rounded)))]
        case .chapters(let chapters):
            fields.append(("chapters", chapterList(chapters)))
        case .abLoop(let a, let b):
            fields += [("a", .optional(a.map(rounded))), ("b", .optional(b.map(rounded)))]
        case .audioDelay(let seconds):
            fields.append(("delay", .double(rounded(seconds))))
        case .picture(let control, let value):
            fields += [("control", .string(control)), ("value", .int(value))]
        case .videoGeometry(let rotate, let zoom, let panX, let panY):
            fields += [("rotate", .int(rotate)), ("zoom", .double(rounded(zoom))), ("panX", .double(rounded(panX))), ("panY", .double(rounded(panY)))]
        }
        return .object(fields)
    }

    /// Chapters as the event stream and the socket's `chapter-list` show them (mpv's shape).
    public static func chapterList(_ chapters: [Chapter]) -> JSONValue {
        .array(chapters.map { .object([("title", .optional($0.title)), ("time", .double(rounded($0.time)))]) })
    }

    /// Tracks as the event stream and the socket's `tracks` show them: index within their kind
    /// (what `audio-track`/`subtitle-track` take), id, type, language, title, selected, external
    /// (a subtitle file rather than one of the media's streams).
    public static func trackList(_ tracks: [MediaTrack], selected: [String]) -> JSONValue {
        var counts: [MediaTrack.Kind: Int] = [:]
        return .array(tracks.map { t in
            let index = counts[t.kind, default: 0]
            counts[t.kind] = index + 1
            return .object([("index", .int(index)), ("id", .string(t.id)), ("type", .string(t.kind.rawValue)),
                            ("language", .optional(t.language)), ("title", .optional(t.title)), ("selected", .bool(selected.contains(t.id))),
                            ("external", .bool(t.isExternal))])
        })
    }

    /// mpv's `track-list`: `id` from 1 within each type (mpv's `aid`/`sid` numbering), `type`
    /// video, audio or sub, `lang`, `title`, `selected`, `external`, and Reel's stream id as `src-id`.
    public static func mpvTrackList(_ tracks: [MediaTrack], selected: [String]) -> JSONValue {
        var counts: [MediaTrack.Kind: Int] = [:]
        return .array(tracks.map { t in
            let id = counts[t.kind, default: 0] + 1
            counts[t.kind] = id
            var fields: [(String, JSONValue)] = [("id", .int(id)), ("type", .string(t.kind == .subtitle ? "sub" : t.kind.rawValue)), ("src-id", .string(t.id))]
            if let lang = t.language { fields.append(("lang", .string(lang))) }
            if let title = t.title { fields.append(("title", .string(title))) }
            fields += [("selected", .bool(selected.contains(t.id))), ("external", .bool(t.isExternal))]
            return .object(fields)
        })
    }

    /// A live item's place: `epochTime` (null without PROGRAM-DATE-TIME), `behindLiveEdge`,
    /// `window` (`{"start", "end"}` on the position scale).
    public static func liveFields(_ live: LivePosition) -> [(String, JSONValue)] {
        [("epochTime", live.epochTime.map { .double(rounded($0)) } ?? .null), ("behindLiveEdge", .double(rounded(live.behindLiveEdge))),
         ("window", windowObject(live.window))]
    }

    public static func windowObject(_ window: ClosedRange<Double>) -> JSONValue {
        .object([("start", .double(rounded(window.lowerBound))), ("end", .double(rounded(window.upperBound)))])
    }

    static func rounded(_ v: Double) -> Double { (v * 1000).rounded() / 1000 }

    public static func line(_ event: PlayerEvent, item: Int?, time: Double) -> String {
        json(event, item: item, time: time).serialized()
    }

    public static func errorObject(_ error: PlaybackError) -> JSONValue {
        .object([("code", .string(error.code)), ("message", .string(Redactor.redactText(error.message))),
                 ("httpStatus", .optional(error.httpStatus)), ("uri", .optional(error.uri.map(Redactor.redactURL)))])
    }
}
