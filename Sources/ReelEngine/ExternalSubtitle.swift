import Foundation
import ReelCore
import Synchronization

/// A subtitle file read for the current item: its track (as `Player.tracks` lists it, id
/// "file:N") and its cues.
public struct ExternalSubtitle: Sendable {
    let track: MediaTrack
    let timeline: SubtitleTimeline
    /// Where it was read from.
    let path: String

    /// Files larger than this are not subtitles (a film's worth of SRT is under 200 KB).
    public static let maximumSize = 16 << 20

    /// The subtitle files of the item at `uri`: those beside a local file (`SidecarSubtitles`)
    /// and `extra` (`--sub-file`), each read and parsed; a file that cannot be read or has no cues
    /// is a problem to report, and is left out.
    static func load(for uri: String, extra: [String]) -> (found: [ExternalSubtitle], problems: [PlaybackError]) {
        var found: [ExternalSubtitle] = []
        var problems: [PlaybackError] = []
        for (path, language, flags) in files(for: uri, extra: extra) {
            let name = (path as NSString).lastPathComponent
            switch bytes(of: path) {
            case .failure(let error):
                problems.append(error)
                continue
            case .success(let data):
                let read = SubtitleFile.read(data, fileName: name)
                switch read.timeline {
                case .success(let timeline):
                    if let warning = SubtitleFile.warning(fileName: name, problems: read.problems) { problems.append(warning) }
                    let title = flags.isEmpty ? name : "\(name) (\(flags.joined(separator: ", ")))"
                    let track = MediaTrack(id: "file:\(found.count)", kind: .subtitle, language: language, title: title, isExternal: true)
                    found.append(ExternalSubtitle(track: track, timeline: timeline, path: path))
                case .failure(let error):
                    problems.append(error)
                }
            }
        }
        return (found, problems)
    }

    /// The bytes of a subtitle file, or why there are none (unreadable, or too large to be one).
    public static func bytes(of path: String) -> Result<[UInt8], PlaybackError> {
        let name = (path as NSString).lastPathComponent
        // Only a regular file is read: a FIFO would block the read for ever, /dev/zero never end.
        let facts = LocalFileFacts(path: path)
        let why: String
        switch facts.kind {
        case nil: why = "cannot be read (it does not exist)"
        case .directory?: why = "is a folder, not a subtitle file"
        case .special?: why = "is not a regular file (a pipe, a device or a socket) and is not read"
        case .regular?:
            guard let size = facts.size, size <= Int64(maximumSize) else {
                why = "is too large to be a subtitle file (\(facts.size ?? 0) bytes; at most \(maximumSize))"
                break
            }
            guard let data = FileManager.default.contents(atPath: path) else { why = "cannot be read"; break }
            return .success([UInt8](data))
        }
        return .failure(PlaybackError(kind: .subtitleFile, message: "The subtitle file “\(name)” \(why)."))
    }

    /// The subtitle files of the item at `uri`, in track order ("file:0", "file:1"…): those beside
    /// a local file (`SidecarSubtitles`), then `extra`, with the language and flags their names say.
    public static func files(for uri: String, extra: [String]) -> [(path: String, language: String?, flags: [String])] {
        var paths: [(path: String, language: String?, flags: [String])] = []
        if let media = MediaLocator.localPath(of: uri) {
            let folder = (media as NSString).deletingLastPathComponent
            let fm = FileManager.default
            var names = (try? fm.contentsOfDirectory(atPath: folder)) ?? []
            for sub in SidecarSubtitles.subfolders where names.contains(sub) {
                names += ((try? fm.contentsOfDirectory(atPath: folder + "/" + sub)) ?? []).map { sub + "/" + $0 }
            }
            for match in SidecarSubtitles.matches(for: (media as NSString).lastPathComponent, among: names) {
                paths.append((folder + "/" + match.path, match.language, match.flags))
            }
        }
        for path in extra {
            let full = (path as NSString).expandingTildeInPath
            if !paths.contains(where: { $0.path == full }) { paths.append((full, SidecarSubtitles.language(inFileName: full), [])) }
        }
        return paths
    }
}

/// Reads an item's subtitle files on a thread of its own (a 16 MiB file is seconds of work, and
/// the main thread draws the window and answers the socket): `start` at each item, the answer
/// handed to the main thread by `wake`, taken there once. A newer start (or `cancel`) makes an
/// older read's answer void.
final class SubtitleReads: Sendable {
    private struct State {
        var generation = 0
        var done: (found: [ExternalSubtitle], problems: [PlaybackError])?
    }

    private let state = Mutex(State())

    /// Starts reading the files of the item at `uri` (and `extra`); `wake` runs on the reading
    /// thread once the answer can be taken, unless a newer start or `cancel` came first.
    func start(uri: String, extra: [String], wake: @escaping @Sendable () -> Void) {
        let generation = state.withLock { s in
            s.generation += 1
            s.done = nil
            return s.generation
        }
        DispatchQueue.global(qos: .userInitiated).async {
            let read = ExternalSubtitle.load(for: uri, extra: extra)
            let current = self.state.withLock { s in
                guard s.generation == generation else { return false }
                s.done = read
                return true
            }
            if current { wake() }
        }
    }

    /// Voids the read under way.
    func cancel() {
        state.withLock { s in
            s.generation += 1
            s.done = nil
        }
    }

    /// The newest start's answer, once.
    func take() -> (found: [ExternalSubtitle], problems: [PlaybackError])? {
        state.withLock { s in
            defer { s.done = nil }
            return s.done
        }
    }
}
