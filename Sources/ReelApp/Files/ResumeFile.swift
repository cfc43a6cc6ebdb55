import Foundation
import ReelCore

/// The `ResumeBook` in a file: `$XDG_STATE_HOME/reel/resume.json` (else
/// `~/.local/state/reel/resume.json`), private to the user (0600 in a 0700 directory, written
/// through `PrivateFile`: never through a symlink). Keys are `ResumeKey`s: nothing secret.
@MainActor
final class ResumeFile {
    let path: String

    init(path: String) {
        self.path = path
    }

    /// nil when neither XDG_STATE_HOME nor HOME is set.
    nonisolated static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        StateDirectory.path("resume.json", environment: environment)
    }

    func read() -> ResumeBook {
        guard let data = FileManager.default.contents(atPath: path) else { return ResumeBook() }
        return ResumeBook(json: data)
    }

    /// Writes the book; a failure (a read-only home, a foreign directory) is said once on stderr
    /// and playback goes on.
    func write(_ book: ResumeBook) {
        let directory = (path as NSString).deletingLastPathComponent
        do {
            try? FileManager.default.createDirectory(atPath: (directory as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try PrivateFile.privateDirectory(directory)
            try PrivateFile.write(book.json(), to: path, mode: 0o600)
        } catch {
            if !warned { Diagnostics.say(String(format: tr("resume positions not saved: %@"), "\(error)")) }
            warned = true
        }
    }

    /// Applies one item's decision to the book *as it is on disk now*, under an exclusive lock
    /// (`resume.json.lock`, flock): two Reels that each rewrote their whole book lost each
    /// other's places. Returns the book as written (the other instances' entries included).
    func apply(_ decision: ResumeRule.Decision, key: String, now: Double, settings: ResumeBook.Settings = ResumeBook.Settings()) -> ResumeBook {
        let directory = (path as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: (directory as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try? PrivateFile.privateDirectory(directory)
        let lock = open(path + ".lock", O_CREAT | O_RDWR | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if lock >= 0 { flock(lock, LOCK_EX) }
        defer {
            if lock >= 0 {
                flock(lock, LOCK_UN)
                close(lock)
            }
        }
        var book = read()
        let before = book
        book.apply(decision, key: key, now: now, settings: settings)
        if book != before { write(book) }
        return book
    }

    private var warned = false
}
