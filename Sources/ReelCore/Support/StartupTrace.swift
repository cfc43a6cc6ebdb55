import Foundation
import Synchronization

/// `REEL_STARTUP_TRACE=FILE`: the milestones of a run, one line each (`name seconds`, wall-clock
/// seconds since 1970, so that a caller that noted the time before `exec` can subtract it):
/// `make bench`'s breakdown of Reel's start-up and exit. Without the variable it is one check of
/// the environment and nothing else.
public enum StartupTrace {
    private static let file = Mutex<FileHandle?>(open())
    /// Names already marked (`once` marks).
    private static let seen = Mutex<Set<String>>([])

    private static func open() -> FileHandle? {
        guard let path = ProcessInfo.processInfo.environment["REEL_STARTUP_TRACE"], !path.isEmpty,
              FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]) else { return nil }
        return FileHandle(forWritingAtPath: path)
    }

    /// Notes that the run reached `name` now (only the first time for a name).
    public static func mark(_ name: String) {
        let now = Date().timeIntervalSince1970
        file.withLock { handle in
            guard let handle, seen.withLock({ $0.insert(name).inserted }) else { return }
            handle.write(Data(String(format: "%@ %.6f\n", name, now).utf8))
        }
    }
}
