import Foundation

/// `reel review`'s own options (the playback ones are `PlaybackOptions`).
struct ReviewOptions: Sendable {
    /// Where review.json, report.json, index.html, the marks' frames and the checks go.
    var directory: URL
    var junit: URL?
    var reviewer: String
    /// Each item reached is checked in the background (`reel check`, another process).
    var automatedChecks: Bool
    /// The `reel` that runs the checks (this process's own binary; tests in-process name it).
    var reelExecutable = "/proc/self/exe"
}
