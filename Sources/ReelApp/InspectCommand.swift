import ArgumentParser
import Foundation
import ReelCore
import ReelGateway
import ReelEngine

/// `reel inspect FILE|URL [--json]`: what is in a media file (streams, codecs, duration), a
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

    @Option(help: ArgumentHelp("Give up after this many seconds.", valueName: "SECONDS"))
    var timeout: Double = 15

    func run() throws {
        if let subtitles = Self.inspectSubtitles(input) {
            print(json ? subtitles.json.serialized() : subtitles.text)
            if !subtitles.ok { throw ExitCode(1) }
            return
        }
        if let playlist = Self.inspectPlaylist(input) {
            print(json ? playlist.json.serialized() : playlist.text)
            if !playlist.ok { throw ExitCode(1) }
            return
        }
        let result = MediaProbe.probe(input, timeout: timeout)
        print(json ? result.json.serialized() : result.text)
        if let error = result.error {
            if !json { Log.say("\(error.code): \(error.message)", prefix: "reel inspect") }
            throw ExitCode(1)
        }
    }

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
        case .failed(let why), .tooLarge(let why): return .failure(type: type, uri: Redactor.redactURL(uri), name: name, message: why)
        }
    }
}
