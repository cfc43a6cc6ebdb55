import Foundation

/// The live event server (`Resources/scripts/live-event-server.py`, also `make bench`'s) for a
/// test: a live HLS stream on 127.0.0.1 that slides in real time, 2 s segments with
/// PROGRAM-DATE-TIME on every one, segment n covering wall-clock [epoch0 + 2n, epoch0 + 2n + 2).
public final class LiveEventServer {
    public struct Request: Sendable {
        public var time: Double
        public var path: String
        /// The query, as sent (a time-shift's `start=…&end=…`).
        public var query: String
        /// The request carried the header the server requires (true when it requires none).
        public var carriedHeader: Bool
    }

    public let port: Int
    /// The wall-clock start of segment 0.
    public let epoch0: Double
    public static let segmentDuration = 2.0
    private let process: Process
    private let directory: URL

    /// - Parameters:
    ///   - window: segments in the playlist; `preroll`: seconds of segments already there.
    ///   - header: `Name: value` every request must carry (401 otherwise).
    /// - Parameter faults: `live-event-server.py --fault` values ("stall:6:10", "skip:20", …).
    /// - Parameter shiftWithoutDates: time-shifted playlists (`?start=…`) carry no PROGRAM-DATE-TIME.
    /// - Parameter media: the folder of segments it cycles over (under the test media).
    public init(window: Int = 6, preroll: Double? = nil, header: String? = nil, holdBack: Double? = nil, faults: [String] = [],
                shiftWithoutDates: Bool = false, media: String = "hls/live") throws {
        TestMedia.ensureGenerated()
        directory = TestMedia.temporaryDirectory("reel-live-server")
        let info = directory.appendingPathComponent("info.json")
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        var arguments = [TestMedia.packageRoot.appendingPathComponent("Resources/scripts/live-event-server.py").path,
                         TestMedia.url(media).path, info.path, "--window", String(window),
                         "--log", directory.appendingPathComponent("requests.log").path]
        if let preroll { arguments += ["--preroll", String(preroll)] }
        if let header { arguments += ["--header", header] }
        if let holdBack { arguments += ["--hold-back", String(holdBack)] }
        for fault in faults { arguments += ["--fault", fault] }
        if shiftWithoutDates { arguments.append("--shift-without-dates") }
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        var found: (Int, Double)?
        while found == nil, Date() < deadline, process.isRunning {
            if let data = try? Data(contentsOf: info), let o = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
               let port = o["port"] as? Int, let epoch0 = o["epoch0"] as? Double {
                found = (port, epoch0)
            } else {
                usleep(20_000)
            }
        }
        guard let found else {
            process.terminate()
            throw NSError(domain: "LiveEventServer", code: 1, userInfo: [NSLocalizedDescriptionKey: "live-event-server.py did not start"])
        }
        (port, epoch0) = found
    }

    public var playlistURL: String { "http://127.0.0.1:\(port)/live/index.m3u8" }
    public var masterURL: String { "http://127.0.0.1:\(port)/live/master.m3u8" }

    /// The wall-clock end of the newest segment in the playlist at `time` (the live edge's date).
    public func edge(at time: Double = Date().timeIntervalSince1970) -> Double {
        ((time - epoch0) / Self.segmentDuration).rounded(.down) * Self.segmentDuration + epoch0
    }

    /// `2026-11-24T20:00:00.000Z` for a wall-clock time.
    public static func iso(_ time: Double) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        f.timeZone = TimeZone(identifier: "UTC")
        return f.string(from: Date(timeIntervalSince1970: time))
    }

    public var requests: [Request] {
        let text = (try? String(contentsOf: directory.appendingPathComponent("requests.log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard let o = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any],
                  let t = o["t"] as? Double, let path = o["path"] as? String else { return nil }
            return Request(time: t, path: path, query: o["query"] as? String ?? "", carriedHeader: o["header"] as? Bool ?? false)
        }
    }

    public func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { stop() }
}
