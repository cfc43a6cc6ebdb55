import Foundation

/// The threads' stacks of a running process, taken with gdb in batch mode before a test kills a
/// child that overran its bound: a hang in CI then leaves its evidence in the log.
public enum StackDump {
    /// `thread apply all bt` of `pid`, or a line saying why there is none. Bounded to 60 s.
    public static func threads(of pid: Int32) -> String {
        let gdb = ["/usr/bin/gdb", "/usr/local/bin/gdb"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let gdb else { return "(no stacks: gdb is not installed)" }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["-k", "5", "60", gdb, "-p", "\(pid)", "-batch", "-nx",
                             "-ex", "set pagination off", "-ex", "thread apply all bt 40"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return "(no stacks: \(error))" }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        // Only the frames and thread headers: gdb's chatter about symbols is noise in a test log.
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
            .filter { $0.hasPrefix("#") || $0.hasPrefix("Thread ") }
        return lines.isEmpty ? "(no stacks: gdb printed none)" : lines.joined(separator: "\n")
    }

    /// Dumps `pid`'s stacks to the test log under a header naming why.
    public static func log(_ pid: Int32, reason: String) {
        print("==== stacks of pid \(pid) (\(reason)) ====\n\(threads(of: pid))\n==== end of stacks ====")
    }
}
