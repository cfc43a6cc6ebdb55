import Foundation

/// The throttling HTTP server (`Resources/scripts/throttle-server.py`, also `make bench`'s) for a
/// test: the files under a directory on 127.0.0.1 through one shared link whose bandwidth follows
/// a schedule from the first request on, every request logged with its time and size.
public final class ThrottleServer {
    public struct Request: Sendable {
        /// Seconds since the first request when the answer began.
        public var time: Double
        public var path: String
        public var status: Int
        public var bytes: Int
        public var seconds: Double
    }

    public let port: Int
    private let process: Process
    private let log: URL

    /// - Parameter schedule: (from second, bits per second), in order.
    public init(root: URL, schedule: [(at: Double, bitsPerSecond: Int)]) throws {
        log = FileManager.default.temporaryDirectory.appendingPathComponent("reel-throttle-\(UUID().uuidString).log")
        let portFile = FileManager.default.temporaryDirectory.appendingPathComponent("reel-throttle-\(UUID().uuidString).port")
        _ = FileManager.default.createFile(atPath: portFile.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: portFile) }
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [TestMedia.packageRoot.appendingPathComponent("Resources/scripts/throttle-server.py").path,
                             "--root", root.path, "--log", log.path,
                             "--schedule", schedule.map { "\($0.at):\($0.bitsPerSecond)" }.joined(separator: ",")]
        process.standardOutput = try FileHandle(forWritingTo: portFile)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        var found: Int?
        while found == nil, Date() < deadline, process.isRunning {
            let text = (try? String(contentsOf: portFile, encoding: .utf8)) ?? ""
            found = text.split(separator: "\n").first { $0.hasPrefix("port ") }.flatMap { Int($0.dropFirst(5)) }
            if found == nil { usleep(20_000) }
        }
        guard let found else {
            process.terminate()
            throw NSError(domain: "ThrottleServer", code: 1, userInfo: [NSLocalizedDescriptionKey: "throttle-server.py did not start"])
        }
        port = found
    }

    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)/" + path }

    /// Every request answered so far, in the order they finished.
    public var requests: [Request] {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard let o = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any],
                  let t = o["t"] as? Double, let path = o["path"] as? String else { return nil }
            return Request(time: t, path: path, status: o["status"] as? Int ?? 0, bytes: o["bytes"] as? Int ?? 0,
                           seconds: o["seconds"] as? Double ?? 0)
        }
    }

    public func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: log)
    }

    deinit { stop() }
}
