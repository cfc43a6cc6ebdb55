import Foundation
import ReelCore

/// The state a user's earlier runs leave in `$XDG_STATE_HOME/reel`, for tests that must hold for
/// returning users as well as on a first run: a remembered throughput (what `ThroughputFile`
/// writes: a fast one, as any stream on loopback leaves, or a slow one) and a resume entry for
/// the stream under test. The suite's fresh state directories hid a crash that every second
/// playback of a real master hit (issue 27).
public enum ReturningUser: String, CaseIterable, Sendable {
    /// Nothing remembered: a first run.
    case fresh
    /// About 1 Gbit/s remembered (what an earlier stream on 127.0.0.1 leaves) and a resume entry.
    case fastLink
    /// 500 kbit/s remembered (below every test rendition) and a resume entry.
    case slowLink

    /// The throughput an earlier run left, bit/s.
    public var throughput: Int? {
        switch self {
        case .fresh: nil
        case .fastLink: 1_000_000_000
        case .slowLink: 500_000
        }
    }

    /// A new private directory to give Reel as `XDG_STATE_HOME`, holding this state; `resuming`
    /// gets a resume entry at `position` of `duration` seconds (not for `.fresh`). The caller
    /// removes it.
    public func stateDirectory(resuming uri: String? = nil, at position: Double = 6, of duration: Double = 20) throws -> URL {
        let home = TestMedia.temporaryDirectory("reel-state-\(rawValue)")
        guard self != .fresh else { return home }
        let reel = home.appendingPathComponent("reel")
        try FileManager.default.createDirectory(at: reel, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        if let throughput {
            try Data("\(throughput)\n".utf8).write(to: reel.appendingPathComponent("throughput"))
        }
        if let uri, let key = ResumeKey.key(for: uri) {
            var book = ResumeBook()
            book.apply(.keep(position: position, duration: duration), key: key, now: Date().timeIntervalSince1970)
            try book.json().write(to: reel.appendingPathComponent("resume.json"))
        }
        return home
    }
}
