import Foundation
import ReelCore

/// `ThroughputMemory` in a file: `$XDG_STATE_HOME/reel/throughput` (else
/// `~/.local/state/reel/throughput`), one line, the last measured download rate in bit/s.
/// Nothing in it is secret; it is still private to the user (0600 in a 0700 directory).
@MainActor
final class ThroughputFile: ThroughputMemory {
    let path: String

    init(path: String) {
        self.path = path
    }

    /// Where the state lives, from the environment; nil when neither XDG_STATE_HOME nor HOME is set.
    nonisolated static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        StateDirectory.path("throughput", environment: environment)
    }

    func recall() -> Int? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        return Int(text.trimmingCharacters(in: .whitespacesAndNewlines)).flatMap { $0 > 0 ? $0 : nil }
    }

    func remember(_ bitsPerSecond: Int) {
        let directory = (path as NSString).deletingLastPathComponent
        let fm = FileManager.default
        try? fm.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let temporary = path + ".tmp"
        guard fm.createFile(atPath: temporary, contents: Data("\(bitsPerSecond)\n".utf8), attributes: [.posixPermissions: 0o600]) else { return }
        if rename(temporary, path) != 0 { try? fm.removeItem(atPath: temporary) }  // atomic: a reader sees old or new
    }
}
