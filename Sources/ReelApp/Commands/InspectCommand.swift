import ArgumentParser
import Foundation
import ReelCore
import ReelGateway
import ReelEngine

/// `reel inspect FILE|URL|DIR [--json]`: what is in a recording (`--record`'s folder), a media file (streams, codecs, duration), a
/// playlist (its entries as resolved), an HLS manifest (variants and renditions; segments,
/// duration, live / VOD / EVENT and encryption) or a subtitle file (the cues Reel's parser reads).
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show what is in a media file, URL or playlist.")

    @Argument(help: "A file or URL.")
    var input: String

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    @Option(help: ArgumentHelp("Show a subtitle track of the media instead: N (1-based: the media's own text streams first, then the files beside it) or file:K (the K-th file beside it, from 0), as a subtitle file is shown.",
                               valueName: "TRACK"))
    var track: String?

    @Option(help: ArgumentHelp("Give up after this many seconds.", valueName: "SECONDS"))
    var timeout: Double = 15

    /// What an inspection of a kind Reel reads itself prints: JSON or text, and whether it passed.
    typealias Shown = (json: JSONValue, text: String, ok: Bool)

    func run() throws {
        // A recording's folder (`reel --record DIR`).
        if let shown = try Self.inspectRecording(input) {
            print(json ? shown.json.serialized() : shown.text)
            return
        }
        // The first reader that knows the input answers (a subtitle track asked for, a subtitle
        // file, a DASH MPD, a playlist); anything else is probed as media.
        if let shown = track.map({ Self.shown(Self.inspectTrack(input, track: $0, timeout: max(timeout, 60))) })
            ?? Self.inspectSubtitles(input).map(Self.shown) ?? Self.inspectDASH(input)
            ?? Self.inspectPlaylist(input).map({ ($0.json, $0.text, $0.ok) }) {
            print(json ? shown.json.serialized() : shown.text)
            if !shown.ok { throw ExitCode(1) }
            return
        }
        let result = MediaProbe.probe(input, timeout: timeout)
        // A DASH MPD under another name, told by its bytes (GstDiscoverer is never given one).
        if result.error?.refusedContent == .dashManifest, let shown = Self.inspectDASH(input, byContent: true) {
            print(json ? shown.json.serialized() : shown.text)
            if !shown.ok { throw ExitCode(1) }
            return
        }
        print(json ? result.json.serialized() : result.text)
        if let error = result.error {
            if !json { Log.say("\(error.code): \(error.message)", prefix: "reel inspect") }
            throw ExitCode(1)
        }
    }

    /// A folder that holds a recording: its summary; nil for anything else.
    static func inspectRecording(_ input: String) throws -> Shown? {
        let folder = URL(fileURLWithPath: input, isDirectory: true)
        guard let data = try? Data(contentsOf: folder.appendingPathComponent(RecordingFolder.manifest)) else { return nil }
        do {
            let manifest = try JSONDecoder().decode(RecordingManifest.self, from: data)
            let requests = try RecordingIndex.read((try? String(contentsOf: folder.appendingPathComponent(RecordingFolder.requests), encoding: .utf8)) ?? "")
            let events = ((try? String(contentsOf: folder.appendingPathComponent(RecordingFolder.events), encoding: .utf8)) ?? "").split(separator: "\n").count
            let summary = RecordingSummary(manifest: manifest, requests: requests, eventLines: events)
            return (summary.json, summary.text, true)
        } catch {
            Log.say("\(input): not a readable recording: \(error)", prefix: "reel inspect")
            throw ExitCode(1)
        }
    }

    static func shown(_ inspection: SubtitleInspection) -> Shown { (inspection.json, inspection.text, inspection.ok) }

    /// A local subtitle file (.srt, .vtt, .ass, .ssa) read by Reel's own parser
    /// (`SubtitleInspection`); nil for anything else.
    static func inspectSubtitles(_ input: String) -> SubtitleInspection? {
        let uri = MediaLocator.uri(for: input)
        guard let path = MediaLocator.localPath(of: uri), SubtitleFile.Format(fileName: path) != nil else { return nil }
        let name = (path as NSString).lastPathComponent
        guard let data = FileManager.default.contents(atPath: path) else {
            return SubtitleInspection(fileName: name, format: SubtitleFile.Format(fileName: path), encoding: "?", cues: [],
                                      error: PlaybackError(kind: .notFound, message: "“\(name)” does not exist or cannot be read."))
        }
        return SubtitleInspection.inspect(Array(data), fileName: name)
    }

    /// A subtitle track of a media file (`--track`): one of its own text streams as GStreamer
    /// decodes it (`EmbeddedTextTrack`), or a file beside it (`ExternalSubtitle.files`) read by
    /// Reel's parser.
    static func inspectTrack(_ input: String, track: String, timeout: Double) -> SubtitleInspection {
        let uri = MediaLocator.uri(for: input)
        let name = MediaLocator.displayName(of: uri)
        func failure(_ error: PlaybackError) -> SubtitleInspection {
            var inspection = SubtitleInspection(fileName: name, format: nil, encoding: "?", cues: [], error: error)
            inspection.track = track
            return inspection
        }
        let files = ExternalSubtitle.files(for: uri, extra: [])
        func file(_ k: Int) -> SubtitleInspection {
            guard files.indices.contains(k) else {
                return failure(PlaybackError(kind: .notFound, message: "“\(name)” has no subtitle track \(track) (\(files.count) subtitle file\(files.count == 1 ? "" : "s") beside it)."))
            }
            let path = files[k].path
            switch ExternalSubtitle.bytes(of: path) {
            case .failure(let error): return failure(error)
            case .success(let bytes):
                var inspection = SubtitleInspection.inspect(bytes, fileName: (path as NSString).lastPathComponent)
                inspection.track = "file:\(k)"
                return inspection
            }
        }
        if track.hasPrefix("file:"), let k = Int(track.dropFirst(5)), k >= 0 { return file(k) }
        guard let n = Int(track), n >= 1 else {
            return failure(PlaybackError(kind: .unknown, message: "--track takes a track number from 1 or file:K, not “\(track)”."))
        }
        switch EmbeddedTextTrack.read(uri: uri, index: n - 1, timeout: timeout) {
        case .failure(let error): return failure(error)
        case .success(let read) where n > read.streams:
            return files.count > n - 1 - read.streams ? file(n - 1 - read.streams)
                : failure(PlaybackError(kind: .notFound, message: "“\(name)” has \(read.streams + files.count) subtitle track\(read.streams + files.count == 1 ? "" : "s") (\(read.streams) of its own, \(files.count) beside it), not \(n)."))
        case .success(let read):
            let error = read.cues.isEmpty ? PlaybackError(kind: .subtitleFile, message: "Subtitle track \(n) of “\(name)” has no text cues.") : nil
            var inspection = SubtitleInspection(fileName: name, format: nil, encoding: "utf-8", cues: read.cues, error: error)
            inspection.track = String(n)
            inspection.embedded = true
            return inspection
        }
    }

    /// A DASH MPD (a `.mpd` file or URL, a local file whose bytes are one, or anything
    /// `byContent` says is one) described by `DASHInspection`; nil for anything else.
    static func inspectDASH(_ input: String, byContent: Bool = false) -> Shown? {
        let uri = MediaLocator.uri(for: input)
        guard byContent || DASHManifest.isDASH(uri)
              || MediaLocator.localPath(of: uri).flatMap(ContentSniff.kind(ofFile:)) == .dashManifest else { return nil }
        let name = MediaLocator.displayName(of: uri)
        let data: Data
        if let path = MediaLocator.localPath(of: uri) {
            guard let read = FileManager.default.contents(atPath: path) else {
                return DASHInspection.inspect("", uri: Redactor.redactURL(uri), name: name + " (cannot be read)")
            }
            data = read
        } else if let url = URL(string: uri), MediaLocator.isNetwork(uri) {
            switch PlaylistDownload.fetchBlocking(url) {
            case .data(let fetched, _): data = fetched
            case .failed(let why), .tooLarge(let why), .timedOut(let why): return DASHInspection.inspect("", uri: Redactor.redactURL(uri), name: "\(name) (\(why))")
            }
        } else {
            return nil
        }
        return DASHInspection.inspect(String(decoding: data, as: UTF8.self), uri: Redactor.redactURL(uri), name: name)
    }

    /// When `input` names a playlist (.m3u, .m3u8, .pls, .xspf), reads or fetches it and
    /// describes it (`PlaylistInspection`); nil for anything else, which is probed as media. An
    /// `.m3u8` that turns out to be an HLS playlist is described as one, never expanded.
    static func inspectPlaylist(_ input: String) -> PlaylistInspection? {
        guard PlaylistParser.looksLikePlaylist(input) else { return nil }
        let uri = MediaLocator.uri(for: input)
        let name = MediaLocator.displayName(of: uri)
        let type = PlaylistFormat.fromExtension(input)?.rawValue ?? "playlist"
        if let path = MediaLocator.localPath(of: uri) {
            let url = URL(fileURLWithPath: path).standardizedFileURL
            guard FileManager.default.isReadableFile(atPath: path),
                  let data = try? Data(contentsOf: url, options: .mappedIfSafe) else {
                return .failure(type: type, uri: Redactor.redactURL(uri), name: name, message: "the playlist file does not exist or cannot be read")
            }
            return PlaylistInspection.inspect(data, location: url)
        }
        guard MediaLocator.isNetwork(uri), let url = URL(string: uri) else { return nil }
        switch PlaylistDownload.fetchBlocking(url) {
        case .data(let data, let finalURL): return PlaylistInspection.inspect(data, location: finalURL)
        case .failed(let why), .tooLarge(let why), .timedOut(let why): return .failure(type: type, uri: Redactor.redactURL(uri), name: name, message: why)
        }
    }
}
