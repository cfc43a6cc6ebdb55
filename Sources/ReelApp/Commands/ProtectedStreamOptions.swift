import ArgumentParser
import Foundation
import ReelCore
import ReelGateway

/// Command-line options for protected streams (`reel play --header … URL`). Network items with
/// any of these set play through Reel's loopback gateway, which puts the headers and token on
/// every request (playlists, segments, keys), not only the first.
struct ProtectedStreamOptions: ParsableArguments {
    @Option(name: .customLong("header"), help: ArgumentHelp(
        "An HTTP header for every request of network items, 'Name: value' (repeatable). Sent to the item's host and --header-host hosts only.",
        valueName: "NAME: VALUE"))
    var headers: [String] = []

    @Option(name: .customLong("header-host"), help: ArgumentHelp(
        "Another host that may receive the headers and token (a CDN; repeatable; '*.example.com' for subdomains).", valueName: "HOST"))
    var headerHosts: [String] = []

    @Option(help: ArgumentHelp("Event tokens from this JSON file: {\"tokens\":[{\"bucket\":\"…\",\"token\":\"…\",\"expires\":\"ISO 8601\"}]}.",
                               valueName: "FILE"))
    var tokenFile: String?

    @Option(name: .customLong("token-url"), help: ArgumentHelp("Event tokens from an HTTP endpoint answering the same JSON as --token-file.",
                                                               valueName: "URL"))
    var tokenURL: String?

    @Option(help: "The token bucket to use (required when the token document has several).")
    var bucket: String?

    @Option(help: "Send the token as the Authorization header, an Authorization query parameter on every request, or both.")
    var tokenPlacement: TokenPlacementArgument = .header

    @Flag(help: "The event has finished (catchup): close live playlists with #EXT-X-ENDLIST so that they play as VOD.")
    var finished = false

    @Option(help: ArgumentHelp("Write one line per upstream HTTP request (method, redacted URL, status, bytes, ms) to FILE (mode 0600).",
                               valueName: "FILE"))
    var httpLog: String?

    @Option(name: .customLong("ca-file"), help: ArgumentHelp(
        "Trust the PEM certificates in FILE for https network items, besides the system's (a private CA). Such items play through the gateway.",
        valueName: "FILE"))
    var caFile: String?

    @Option(help: ArgumentHelp("Record every upstream request of the gateway's streams into DIR, a new folder (mode 0700): URLs redacted, the answers' status, headers that matter, bodies and times, and Reel's events; never the headers or tokens given. `reel --replay DIR` plays it again.", valueName: "DIR"))
    var record: String?

    @Option(help: ArgumentHelp("Stop recording (and say so; playback goes on) once the recording holds this much: bytes, or with k, M or G.", valueName: "SIZE"))
    var recordMax: String?

    @Option(help: ArgumentHelp("Play a recording (--record's folder) as it was recorded: each request answered as the origin answered it at that moment, as slowly, its failures where they came; without inputs, the recording's own. Nothing reaches the network.", valueName: "DIR"))
    var replay: String?

    @Option(help: ArgumentHelp("With --replay: every wait of the recording divided by this (faster than real time for CI).", valueName: "FACTOR"))
    var replaySpeed: Double = 1

    @Option(help: ArgumentHelp("With --replay: faults to add or remove, a line each (`segment 12 status 503`, `segment 12 ok`, `segment 7 stall 4`, `request 31 status 404`, `playlist refresh 5 stale`).", valueName: "FILE"))
    var replayFaults: String?

    /// The inputs, or with `--replay` and none given, the recording's own.
    func effectiveInputs(_ inputs: [String]) -> [String] {
        guard inputs.isEmpty, let replay,
              let data = try? Data(contentsOf: URL(fileURLWithPath: replay).appendingPathComponent(RecordingFolder.manifest)),
              let manifest = try? JSONDecoder().decode(RecordingManifest.self, from: data) else { return inputs }
        return manifest.inputs
    }

    /// What can be judged without the inputs; the commands validate the rest with theirs
    /// (`--token-placement` may rest on an input URL's own `Authorization` parameter).
    func validate() throws { _ = try settings(inputs: nil) }

    /// The options as settings, bound to the command line's `inputs`; throws a `ValidationError`
    /// naming the bad option.
    func settings(inputs: [String]? = nil) throws -> ProtectedStreamSettings {
        var s = ProtectedStreamSettings()
        s.inputs = inputs ?? []
        s.origins = CredentialGrant(hasCredentials: true, inputs: inputs ?? [], hosts: []).origins
        for text in headers {
            do { s.headers.append(try HeaderField(parsing: text)) } catch { throw ValidationError("--header: \(error)") }
        }
        s.allowedHosts = headerHosts
        if tokenFile != nil && tokenURL != nil { throw ValidationError("Use --token-file or --token-url, not both.") }
        if let tokenURL {
            guard let url = URL(string: tokenURL), MediaLocator.isNetwork(tokenURL) else {
                throw ValidationError("--token-url: '\(Redactor.redactURL(tokenURL))' is not an http(s) URL.")
            }
            s.tokenURL = url
        }
        s.tokenFile = tokenFile
        if bucket != nil && tokenFile == nil && tokenURL == nil { throw ValidationError("--bucket needs --token-file or --token-url.") }
        if let inputs, tokenPlacement != .header, tokenFile == nil, tokenURL == nil,
           !inputs.contains(where: { URLTokenParameter.extract(from: $0) != nil }) {
            throw ValidationError("--token-placement needs --token-file or --token-url (or an input URL with its own Authorization parameter).")
        }
        s.bucket = bucket
        s.placement = tokenPlacement.value
        s.finished = finished
        if let httpLog {
            // Opened now, once, as the gateway will open it: an option that cannot be honoured is
            // a command line error (exit 2), never a gateway that fails to start and items that
            // then play without their headers.
            do { close(try PrivateFile.openForAppend(httpLog)) } catch {
                throw ValidationError("--http-log: '\(httpLog)' cannot be used: \(error).")
            }
        }
        s.httpLogPath = httpLog
        if let caFile {
            guard FileManager.default.isReadableFile(atPath: caFile),
                  let pem = try? String(contentsOfFile: caFile, encoding: .utf8), pem.contains("-----BEGIN CERTIFICATE-----") else {
                throw ValidationError("--ca-file: '\(caFile)' is not a readable PEM file with a certificate in it.")
            }
            s.caFile = caFile
        }
        try recording(into: &s)
        for h in s.headers { h.registerSecret() }
        return s
    }
}

extension ProtectedStreamOptions {
    /// `--record`, `--record-max`, `--replay`, `--replay-speed`, `--replay-faults`, judged now:
    /// a folder that cannot be recorded into or a recording that cannot be read is a command
    /// line error, never a session that plays unrecorded.
    func recording(into s: inout ProtectedStreamSettings) throws {
        if record != nil && replay != nil { throw ValidationError("Use --record or --replay, not both.") }
        if recordMax != nil && record == nil { throw ValidationError("--record-max needs --record.") }
        if (replaySpeed != 1 || replayFaults != nil) && replay == nil { throw ValidationError("--replay-speed and --replay-faults need --replay.") }
        if let record {
            let manifest = URL(fileURLWithPath: record).appendingPathComponent(RecordingFolder.manifest).path
            if FileManager.default.fileExists(atPath: manifest) { throw ValidationError("--record: '\(record)' already holds a recording; give a new folder.") }
            let parent = URL(fileURLWithPath: record).deletingLastPathComponent().path
            guard FileManager.default.isWritableFile(atPath: parent) else { throw ValidationError("--record: '\(parent)' cannot be written.") }
            s.record = record
            if let recordMax {
                guard let bytes = ByteSize.parse(recordMax), bytes > 0 else { throw ValidationError("--record-max: '\(recordMax)' is not a size (bytes, or with k, M or G).") }
                s.recordMax = bytes
            }
        }
        if let replay {
            guard replaySpeed > 0, replaySpeed <= 100, replaySpeed.isFinite else { throw ValidationError("--replay-speed: a factor above 0, at most 100.") }
            var faults = RecordingFaults()
            if let replayFaults {
                guard let text = try? String(contentsOfFile: replayFaults, encoding: .utf8) else { throw ValidationError("--replay-faults: '\(replayFaults)' cannot be read.") }
                do { faults = try RecordingFaults(parsing: text) } catch { throw ValidationError("--replay-faults: \(error)") }
            }
            do { s.replay = try ReplayOrigin(directory: replay, speed: replaySpeed, faults: faults) } catch {
                throw ValidationError("--replay: \(error)")
            }
            if replaySpeed != 1, s.replay?.holdsLiveMPD == true {
                throw ValidationError("--replay-speed: a live DASH recording replays in real time only (dashdemux2 reads its live window by the desktop's clock).")
            }
        }
    }
}

