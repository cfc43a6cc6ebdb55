import Foundation

/// Live DASH as a packager makes it (issue 31): ffmpeg's DASH muxer in real time (`-re`, 2 s
/// segments, `-window_size 6 -extra_window_size 2`, `-use_template 1`), writing into a temporary
/// directory that a test serves as it is written (`HTTPFixtureServer.serveLiveDirectory`).
public final class LiveDASHPackager {
    public let directory: URL
    public let process: Process
    /// - Parameter renditions: two video Representations (180p, streams 0; 360p, 1) and the
    ///   audio (2), instead of one video (0) and the audio (1).
    /// - Parameter streaming: `-streaming 1`: each segment written in fragments as it is
    ///   encoded (a moof per frame), the file growing under its final name.
    public init(timeline: Bool, utcTiming: URL? = nil, renditions: Bool = false, streaming: Bool = false) throws {
        directory = TestMedia.temporaryDirectory("reel-live-dash")
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.currentDirectoryURL = directory
        let video = renditions
            ? ["-map", "0:v", "-map", "0:v", "-map", "1:a", "-s:v:0", "320x180", "-b:v:0", "200k", "-s:v:1", "640x360", "-b:v:1", "700k",
               "-adaptation_sets", "id=0,streams=v id=1,streams=a"]
            : ["-b:v", "300k"]
        process.arguments = ["-nostdin", "-loglevel", "error", "-re",
                             "-f", "lavfi", "-i", "testsrc2=size=\(renditions ? "640x360" : "320x180"):rate=25", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000",
                             "-c:v", "libx264", "-preset", "ultrafast", "-tune", "zerolatency", "-g", "50", "-keyint_min", "50", "-sc_threshold", "0"]
            + video + ["-c:a", "aac", "-b:a", "64k",
                             "-f", "dash", "-seg_duration", "2", "-window_size", "6", "-extra_window_size", "2",
                             "-use_timeline", timeline ? "1" : "0", "-use_template", "1", "-streaming", streaming ? "1" : "0", "-remove_at_exit", "1"]
            + (utcTiming.map { ["-utc_timing_url", $0.absoluteString] } ?? []) + ["manifest.mpd"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    public var manifest: String { (try? String(contentsOf: directory.appendingPathComponent("manifest.mpd"), encoding: .utf8)) ?? "" }

    /// The stream's availabilityStartTime (ffmpeg's start).
    public var anchor: Date? {
        guard let range = manifest.range(of: #"availabilityStartTime="([^"]+)""#, options: .regularExpression) else { return nil }
        let value = manifest[range].dropFirst("availabilityStartTime=\"".count).dropLast()
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f.date(from: String(value))
    }

    /// Waits until the first segment listed is no longer the stream's first: the window slid.
    public func waitUntilSlid(timeout: Double = 40) -> Bool {
        let until = Date().addingTimeInterval(timeout)
        while Date() < until {
            let text = manifest
            if text.contains("<S t=\""), !text.contains("<S t=\"0\"") { return true }
            if !text.contains("<S t="), let anchor, Date().timeIntervalSince(anchor) > 20 { return true }  // a template by the clock
            Thread.sleep(forTimeInterval: 0.5)
        }
        return false
    }

    public func stop() {
        process.terminate()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: directory)
    }
}

public extension LiveDASHPackager {
    struct NotSlid: Error, CustomStringConvertible {
        public let manifest: String
        public var description: String { "ffmpeg's window did not slide: \(manifest.prefix(600))" }
    }

    /// ffmpeg making live DASH, joined once its window slid (as a user joining a running event),
    /// served at `/live` by a server on 127.0.0.1 that requires `header` when given.
    static func slidAndServed(timeline: Bool = true, header: (name: String, value: String)? = nil) throws -> (packager: LiveDASHPackager, server: HTTPFixtureServer) {
        let packager = try LiveDASHPackager(timeline: timeline)
        guard packager.waitUntilSlid() else {
            packager.stop()
            throw NotSlid(manifest: packager.manifest)
        }
        let server = try HTTPFixtureServer(host: "127.0.0.1")
        server.serveLiveDirectory(packager.directory, at: "/live")
        if let header { server.requireHeader(header.name, header.value) }
        return (packager, server)
    }
}
