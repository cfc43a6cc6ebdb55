import Foundation

/// A program running in the background during a test (e.g. `reel --ipc`), its output going to
/// files. `finish` waits for it to exit and kills it after a bound.
public final class BackgroundProcess {
    public let process = Process()
    private let outURL: URL, errURL: URL
    /// The run's own XDG_STATE_HOME (removed by `finish`), unless the test gave one.
    private let stateHome: String?

    public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        let dir = FileManager.default.temporaryDirectory
        outURL = dir.appendingPathComponent("reel-bg-\(UUID().uuidString).out")
        errURL = dir.appendingPathComponent("reel-bg-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let state = ProcessRunner.isolatedStateHome(unless: environment)
        stateHome = state
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            .merging(state.map(ProcessRunner.isolatedVariables) ?? [:]) { $1 }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        try process.run()
    }

    public var stdout: String { (try? String(contentsOf: outURL, encoding: .utf8)) ?? "" }
    public var stderr: String { (try? String(contentsOf: errURL, encoding: .utf8)) ?? "" }

    /// Waits up to `timeout` seconds for the exit; then SIGTERM, then SIGKILL. Returns the status
    /// and whether it had to be killed (then its stacks are printed first, see StackDump).
    @discardableResult
    public func finish(timeout: Double = 10, dumpStacks: Bool = true) -> (status: Int32, killed: Bool) {
        defer { if let stateHome { try? FileManager.default.removeItem(atPath: stateHome) } }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        var killed = false
        if process.isRunning {
            killed = true
            if dumpStacks { StackDump.log(process.processIdentifier, reason: "did not exit within \(Int(timeout)) s") }
            process.terminate()
            let hard = Date().addingTimeInterval(2)
            while process.isRunning && Date() < hard { usleep(20_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
        return (process.terminationStatus, killed)
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
        try? FileManager.default.removeItem(at: outURL)
        try? FileManager.default.removeItem(at: errURL)
    }
}
