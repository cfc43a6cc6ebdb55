/// mpv's events (DOCS/man/input.rst, "List of events"), told from Reel's: a client that knows
/// only mpv's waits for `start-file`, `file-loaded`, `playback-restart`, `seek`, `end-file` (with
/// its reason), `idle` and `shutdown`, and never has to read Reel's richer ones, which go on
/// beside them. Pure: Reel's events in order, mpv's out.
public struct MPVEvents: Sendable {
    /// The entry open now (mpv's `playlist_entry_id`: Reel's queue index + 1), nil when none.
    private var open: Int?
    private var loaded = false
    private var restarted = false
    private var seeking = false

    public init() {}

    public mutating func translate(_ event: PlayerEvent, item: Int?) -> [JSONValue] {
        var out: [JSONValue] = []
        switch event {
        case .itemChanged:
            out += close(reason: "stop")
            if let item {
                open = item + 1
                loaded = false
                restarted = false
                seeking = false
                out.append(Self.event("start-file", [("playlist_entry_id", .int(item + 1))]))
            } else {
                out.append(Self.event("idle"))
            }
        // mpv's file-loaded: the item's streams are known (a gapless switch says no new status,
        // only its media info and progress); playback-restart once its first frame plays.
        case .mediaInfo:
            out += loadedOnce()
        case .status(.readyToPlay), .progress:
            out += loadedOnce()
            if open != nil, !restarted {
                restarted = true
                out.append(Self.event("playback-restart"))
            }
        case .status(.failed(let error)):
            out += close(reason: "error", extra: [("file_error", .string(Redactor.redactText(error.message)))])
        case .timeControl(.waitingToPlayAtSpecifiedRate(.seeking)):
            guard open != nil, !seeking else { break }
            seeking = true
            out.append(Self.event("seek"))
        case .seeked:
            guard open != nil else { break }
            if !seeking { out.append(Self.event("seek")) }
            seeking = false
            out.append(Self.event("playback-restart"))
        case .playedToEnd:
            out += close(reason: "eof")
        case .finished:
            out += close(reason: "eof")
            out.append(Self.event("idle"))
        default:
            break
        }
        return out
    }

    private mutating func loadedOnce() -> [JSONValue] {
        guard open != nil, !loaded else { return [] }
        loaded = true
        return [Self.event("file-loaded")]
    }

    /// `end-file` for the entry open, if any.
    private mutating func close(reason: String, extra: [(String, JSONValue)] = []) -> [JSONValue] {
        guard let id = open else { return [] }
        open = nil
        loaded = false
        restarted = false
        return [Self.event("end-file", [("reason", .string(reason)), ("playlist_entry_id", .int(id))] + extra)]
    }

    public static func event(_ name: String, _ fields: [(String, JSONValue)] = []) -> JSONValue {
        .object([("event", .string(name))] + fields)
    }
}
