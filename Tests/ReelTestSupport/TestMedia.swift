import Foundation
import Synchronization

/// Generated test media (Resources/scripts/make-media.sh). Generates once per run if absent.
public enum TestMedia {
    /// The package root (this file is Tests/ReelTestSupport/TestMedia.swift).
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    public static let directory: URL = packageRoot.appendingPathComponent("Resources/media", isDirectory: true)

    /// The per-second colors of color10s.mp4 (RGB), in the order of make-media.sh's PALETTE.
    public static let palette: [(r: Int, g: Int, b: Int)] = [
        (255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 0), (255, 0, 255),
        (0, 255, 255), (255, 255, 255), (128, 128, 128), (255, 128, 0), (128, 0, 255),
    ]

    private static let generated = Mutex(false)

    /// Runs make-media.sh once per process (it is cached and quick when the files exist).
    public static func ensureGenerated() {
        generated.withLock { done in
            guard !done else { return }
            let script = packageRoot.appendingPathComponent("Resources/scripts/make-media.sh").path
            let result = ProcessRunner.run("/bin/bash", [script, directory.path], timeout: 300)
            precondition(result.status == 0, "make-media.sh failed: \(result.stderr)")
            done = true
        }
    }

    /// The file URL of a generated medium, e.g. `url("clip2s.mp4")`.
    public static func url(_ name: String) -> URL {
        ensureGenerated()
        return directory.appendingPathComponent(name)
    }

    public static func path(_ name: String) -> String { url(name).path }

    /// Which palette index a color is nearest to (for identifying color10s.mp4's second).
    public static func paletteIndex(r: Int, g: Int, b: Int) -> Int {
        var best = 0, bestDistance = Int.max
        for (i, c) in palette.enumerated() {
            let d = (c.r - r) * (c.r - r) + (c.g - g) * (c.g - g) + (c.b - b) * (c.b - b)
            if d < bestDistance { best = i; bestDistance = d }
        }
        return best
    }

    /// A fresh private temporary directory (mode 0700), removed by the caller when done.
    public static func temporaryDirectory(_ prefix: String = "reel-test") -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return url
    }
}
