import Foundation
import ReelCore
import ReelGateway
import ReelGLib
import Synchronization

/// yt-dlp as an optional helper, as mpv's ytdl_hook uses it: a network item the engine refused as
/// a web page is looked up with `yt-dlp -J` (found on PATH), and what the page holds plays in its
/// place (`YTDLInfo`: the chosen format, its headers and cookies for its host only, through the
/// gateway). The run has a deadline and a bound on its output; its stderr goes to
/// `REEL_DEBUG=ytdl` (redacted), never to the events. Without yt-dlp, the item fails saying what
/// to install.
@MainActor
final class YTDLHelper: PageResolving {
    let settings: YTDLSettings
    /// The yt-dlp runs under way (stopped when Reel's session ends: no process outlives Reel).
    private let running = Runs()

    private final class Runs: Sendable {
        let byPID = Mutex<[Int32: Run]>([:])
    }

    /// One run: its process and what its answer goes to (on the main thread).
    private final class Run: @unchecked Sendable {
        let process: Process
        let done: @MainActor (Result<[QueueItem], PlaybackError>) -> Void
        init(process: Process, done: @escaping @MainActor (Result<[QueueItem], PlaybackError>) -> Void) {
            self.process = process
            self.done = done
        }
    }
    private let environment: [String: String]
    /// Where a page's subtitles are kept while Reel runs (0700, files 0600; removed at the end).
    private let subtitleFolder = FileManager.default.temporaryDirectory.appendingPathComponent("reel-ytdl-\(getpid())-\(UUID().uuidString.prefix(8))")

    init(settings: YTDLSettings, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.settings = settings
        self.environment = environment
    }

    func resolves(_ item: QueueItem) -> Bool {
        guard settings.enabled, let scheme = URLComponents(string: item.uri)?.scheme?.lowercased() else { return false }
        return scheme == "http" || scheme == "https"
    }

    /// yt-dlp's path on PATH, or nil.
    static func executable(in environment: [String: String]) -> String? {
        for folder in (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") where !folder.isEmpty {
            let path = "\(folder)/yt-dlp"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    static let notInstalled = "this is a web page, not media; Reel plays the video a page holds through yt-dlp, which is not installed: install it (apt install yt-dlp, or pip install yt-dlp) or give the video's own address"

    func resolve(_ item: QueueItem, done: @escaping @MainActor (Result<[QueueItem], PlaybackError>) -> Void) {
        guard let executable = Self.executable(in: environment) else {
            done(.failure(PlaybackError(kind: .unsupportedFormat, message: Self.notInstalled, uri: item.uri)))
            return
        }
        let page = item.uri, settings = settings, running = running, folder = subtitleFolder
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = settings.arguments(for: page)
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        let started = Date()
        Log.debug(.ytdl, .info, "yt-dlp \(Redactor.redactURL(page)): \(executable) \(settings.arguments(for: Redactor.redactURL(page)).joined(separator: " "))")
        do { try process.run() } catch {
            done(.failure(PlaybackError(kind: .unsupportedFormat, message: "yt-dlp could not be started (\(executable)): \(error.localizedDescription)", uri: page)))
            return
        }
        let pid = process.processIdentifier
        let run = Run(process: process, done: done)
        running.byPID.withLock { $0[pid] = run }
        let stopped = Mutex<String?>(nil)  // why Reel stopped it, when it did
        let stop: @Sendable (String) -> Void = { why in
            guard stopped.withLock({ s in defer { if s == nil { s = why } }; return s == nil }) else { return }
            kill(pid, SIGTERM)
            DispatchQueue.global().asyncAfter(deadline: .now() + 2) { if run.process.isRunning { kill(pid, SIGKILL) } }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + settings.deadline) {
            if run.process.isRunning { stop("it took more than \(Int(settings.deadline)) s") }
        }
        let errorLines = Mutex<[String]>([])
        let stderrDone = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            // Each line to the debug log; the last few kept for the message (yt-dlp's ERROR: line).
            var pending = Data()
            func flush(_ line: Data) {
                let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                guard !text.isEmpty else { return }
                Log.debug(.ytdl, .info, "yt-dlp: \(text.prefix(2000))")
                errorLines.withLock { lines in
                    lines.append(String(text.prefix(500)))
                    if lines.count > 20 { lines.removeFirst() }
                }
            }
            while case let chunk = err.fileHandleForReading.availableData, !chunk.isEmpty {
                pending.append(chunk)
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    flush(pending[pending.startIndex..<newline])
                    pending = Data(pending[pending.index(after: newline)...])
                }
                if pending.count > 64 << 10 { flush(pending); pending.removeAll() }
            }
            flush(pending)
            stderrDone.signal()
        }
        Thread.detachNewThread {
            var output = Data()
            while case let chunk = out.fileHandleForReading.availableData, !chunk.isEmpty {
                if output.count + chunk.count > settings.maximumOutput {
                    stop("its answer was larger than \(settings.maximumOutput >> 20) MiB")
                    break
                }
                output.append(chunk)
            }
            run.process.waitUntilExit()
            stderrDone.wait()
            running.byPID.withLock { _ = $0.removeValue(forKey: pid) }
            let status = run.process.terminationStatus
            let why = stopped.withLock { $0 }
            let lines = errorLines.withLock { $0 }
            Log.debug(.ytdl, .info, "yt-dlp ended (status \(status)) after \(String(format: "%.1f", Date().timeIntervalSince(started))) s, \(output.count) bytes")
            var result = Self.items(output: output, status: status, stoppedBecause: why, errorLines: lines, page: page)
            if case .success(var items) = result, items.contains(where: { $0.options["sub-url"] != nil }) {
                Self.fetchSubtitles(&items, into: folder)
                result = .success(items)
            }
            MainQueue.shared.async { run.done(result) }
        }
    }

    /// What a run gave: the page's items, or the error its item fails with.
    nonisolated static func items(output: Data, status: Int32, stoppedBecause: String?, errorLines: [String], page: String) -> Result<[QueueItem], PlaybackError> {
        if let why = stoppedBecause {
            return .failure(PlaybackError(kind: .timeout, message: "yt-dlp was stopped: \(why)", uri: page))
        }
        guard status == 0 else {
            // yt-dlp's own words ("ERROR: Unsupported URL: …"), shortened.
            let said = errorLines.last(where: { $0.hasPrefix("ERROR:") }) ?? errorLines.last ?? "exit status \(status)"
            let text = said.hasPrefix("ERROR: ") ? String(said.dropFirst(7)) : said
            return .failure(PlaybackError(kind: .unsupportedFormat, message: "yt-dlp found no video on the page: \(Redactor.redactText(String(text.prefix(300))))", uri: page))
        }
        switch YTDLInfo.entries(output) {
        case .success(let entries):
            return .success(entries.map { QueueItem(uri: $0.url, title: $0.title, duration: $0.duration, options: $0.options(page: page)) })
        case .failure(let failure):
            return .failure(PlaybackError(kind: .unsupportedFormat, message: failure.description, uri: page))
        }
    }

    /// Stops every run under way and removes the subtitles fetched (the session ends).
    nonisolated func stopAll() {
        for (pid, run) in running.byPID.withLock({ $0 }) where run.process.isRunning { kill(pid, SIGKILL) }
        try? FileManager.default.removeItem(at: subtitleFolder)
    }

    /// Fetches the subtitles yt-dlp chose (`sub-url`: `LANG URL`) into `folder` as files the engine
    /// reads (`sub-file`, named `subtitles.LANG.EXT` so the language is known), with the item's
    /// headers only when the subtitles are at its own origin. One that cannot be fetched is left out
    /// (said in the debug log): the video plays without it.
    nonisolated static func fetchSubtitles(_ items: inout [QueueItem], into folder: URL) {
        let fm = FileManager.default
        for (n, item) in items.enumerated() {
            guard let wanted = item.options["sub-url"] else { continue }
            let own = URLComponents(string: item.uri)
            var files: [String] = []
            for (k, line) in wanted.prefix(20).enumerated() {
                let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
                guard parts.count == 2, let url = URL(string: parts[1]), let target = URLComponents(string: parts[1]) else { continue }
                let sameOrigin = target.scheme == own?.scheme && target.host == own?.host && target.port == own?.port
                let headers = sameOrigin ? item.headers.map { (name: $0.0, value: $0.1) } : []
                switch PlaylistDownload.fetchBlocking(url, maximumBytes: 16 << 20, timeout: 10, headers: headers) {
                case .data(let data, _):
                    let language = parts[0].filter { $0.isLetter || $0.isNumber || $0 == "-" }.prefix(20)
                    let ext = ["vtt", "srt", "ass", "ssa"].contains(url.pathExtension.lowercased()) ? url.pathExtension.lowercased() : "vtt"
                    let dir = folder.appendingPathComponent("\(n)-\(k)")
                    try? fm.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                    try? fm.createDirectory(at: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                    let file = dir.appendingPathComponent("subtitles.\(language.isEmpty ? "und" : String(language)).\(ext)")
                    if fm.createFile(atPath: file.path, contents: data, attributes: [.posixPermissions: 0o600]) { files.append(file.path) }
                case .failed(let why), .timedOut(let why), .tooLarge(let why):
                    Log.debug(.ytdl, .warning, "the page's \(parts[0]) subtitles were not fetched: \(why)")
                }
            }
            if !files.isEmpty { items[n].options["sub-file"] = files }
        }
    }
}
