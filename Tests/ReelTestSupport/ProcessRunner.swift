import Foundation

/// Runs a program to completion with a bound, capturing its output.
public enum ProcessRunner {
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
        public var timedOut: Bool
        /// True when the process died of a signal (then `status` is the signal's number).
        public var signaled = false
        public var lines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) }
        /// stdout's lines as JSON objects (`--events`), skipping lines that are not JSON objects.
        public var jsonObjects: [[String: Any]] {
            lines.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
        }
        /// stdout's lines that look like JSON (start with "{") but do not parse: tests assert
        /// there are none, so that a malformed event line fails loudly instead of being dropped.
        public var malformedJSONLines: [String] {
            lines.filter { $0.hasPrefix("{") && ((try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]) == nil }
        }
    }

    /// Runs `executable` with `arguments`; kills it after `timeout` seconds, first printing its
    /// threads' stacks (StackDump) so that a hang leaves evidence.
    public static func run(_ executable: String, _ arguments: [String], timeout: Double = 60,
                           environment: [String: String]? = nil, currentDirectory: URL? = nil) -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let state = isolatedStateHome(unless: environment)
        defer { if let state { try? FileManager.default.removeItem(atPath: state) } }
        process.environment = ProcessInfo.processInfo.environment.merging(environment ?? [:]) { $1 }
            .merging(state.map(ProcessRunner.isolatedVariables) ?? [:]) { $1 }
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        // Read concurrently so a chatty child never blocks on a full pipe.
        let outData = DataBox(), errData = DataBox()
        let group = DispatchGroup()
        for (pipe, box) in [(out, outData), (err, errData)] {
            group.enter()
            DispatchQueue.global().async {
                box.set(pipe.fileHandleForReading.readDataToEndOfFile())
                group.leave()
            }
        }
        do { try process.run() } catch {
            return Result(status: -1, stdout: "", stderr: "\(error)", timedOut: false)
        }
        let deadline = Date().addingTimeInterval(timeout)
        var timedOut = false
        while process.isRunning {
            if Date() > deadline {
                timedOut = true
                StackDump.log(process.processIdentifier, reason: "\(URL(fileURLWithPath: executable).lastPathComponent) overran its \(Int(timeout)) s bound")
                process.terminate()
                usleep(200_000)
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                break
            }
            usleep(10_000)
        }
        process.waitUntilExit()
        group.wait()
        return Result(status: process.terminationStatus, stdout: String(decoding: outData.get(), as: UTF8.self),
                      stderr: String(decoding: errData.get(), as: UTF8.self), timedOut: timedOut,
                      signaled: process.terminationReason == .uncaughtSignal)
    }

    /// A fresh, empty `XDG_STATE_HOME` for one run (what Reel remembers between runs, such as the
    /// last throughput, must not leak from one test into the next), unless the test gives one.
    static func isolatedStateHome(unless environment: [String: String]?) -> String? {
        guard environment?["XDG_STATE_HOME"] == nil else { return nil }
        let path = NSTemporaryDirectory() + "reel-state-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The variables that point a run at its isolated state home: what Reel remembers
    /// (XDG_STATE_HOME) and the desktop's data, such as the recent files list (XDG_DATA_HOME).
    static func isolatedVariables(_ state: String) -> [String: String] {
        ["XDG_STATE_HOME": state, "XDG_DATA_HOME": state + "/data"]
    }

    /// The built `reel` executable next to the test bundle (`REEL_TEST_EXECUTABLE` names another:
    /// an older build, to see a test fail before its fix).
    public static var reelExecutable: String {
        if let other = ProcessInfo.processInfo.environment["REEL_TEST_EXECUTABLE"], !other.isEmpty { return other }
        let bundle = Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") }?.bundleURL
            ?? URL(fileURLWithPath: CommandLine.arguments.first ?? ".")
        return bundle.deletingLastPathComponent().appendingPathComponent("reel").path
    }
}

private final class DataBox: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func set(_ d: Data) { lock.lock(); data = d; lock.unlock() }
    func get() -> Data { lock.lock(); defer { lock.unlock() }; return data }
}
