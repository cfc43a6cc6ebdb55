import Foundation

/// Golden-image comparison for screenshot tests. A capture matches its golden PNG when at most
/// `maxPixels` pixels differ by more than `fuzz` percent (ImageMagick `compare -metric AE`).
/// On a mismatch `<name>.actual.png` and `<name>.diff.png` are written next to the golden (both
/// git-ignored). `REEL_UPDATE_GOLDENS=1` (or `make goldens`) writes the captures as new goldens.
public enum ScreenshotGolden {
    public struct Outcome: Sendable {
        public var matches: Bool
        public var differingPixels: Int?
        public var message: String
    }

    public static var updating: Bool { ProcessInfo.processInfo.environment["REEL_UPDATE_GOLDENS"] == "1" }

    /// Compares `actual` with `directory/name.png`.
    public static func check(_ actual: String, name: String, directory: URL, fuzz: Int = 8, maxPixels: Int = 60) -> Outcome {
        let golden = directory.appendingPathComponent("\(name).png")
        let diff = directory.appendingPathComponent("\(name).diff.png")
        let kept = directory.appendingPathComponent("\(name).actual.png")
        try? FileManager.default.removeItem(at: diff)
        try? FileManager.default.removeItem(at: kept)
        if updating || !FileManager.default.fileExists(atPath: golden.path) {
            try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try? FileManager.default.removeItem(at: golden)
            do { try FileManager.default.copyItem(atPath: actual, toPath: golden.path) } catch {
                return Outcome(matches: false, differingPixels: nil, message: "could not write golden \(golden.path): \(error)")
            }
            return Outcome(matches: !updating ? false : true, differingPixels: 0,
                           message: updating ? "golden \(name) updated" : "golden \(name) was missing: written from this run; check it and commit it")
        }
        guard let a = PixelProbe.size(actual), let g = PixelProbe.size(golden.path) else {
            return Outcome(matches: false, differingPixels: nil, message: "could not read \(actual) or \(golden.path)")
        }
        guard a == g else {
            try? FileManager.default.copyItem(atPath: actual, toPath: kept.path)
            return Outcome(matches: false, differingPixels: nil,
                           message: "\(name): size \(a.width)x\(a.height) differs from golden \(g.width)x\(g.height); capture kept at \(kept.path)")
        }
        let pixels = differingPixels(actual, golden.path, fuzz: fuzz, diffPath: diff.path)
        if let pixels, pixels <= maxPixels {
            try? FileManager.default.removeItem(at: diff)
            return Outcome(matches: true, differingPixels: pixels, message: "\(name): \(pixels) pixels differ (≤ \(maxPixels))")
        }
        try? FileManager.default.copyItem(atPath: actual, toPath: kept.path)
        return Outcome(matches: false, differingPixels: pixels,
                       message: "\(name): \(pixels.map(String.init) ?? "?") pixels differ by more than \(fuzz)% (allowed \(maxPixels)); "
                           + "see \(diff.path) and \(kept.path); regenerate with `make goldens` if the change is intended")
    }

    /// How many pixels differ by more than `fuzz` percent, optionally writing a diff image.
    public static func differingPixels(_ a: String, _ b: String, fuzz: Int = 8, diffPath: String? = nil) -> Int? {
        let r = ProcessRunner.run("/usr/bin/compare", ["-metric", "AE", "-fuzz", "\(fuzz)%", a, b, diffPath ?? "null:"], timeout: 60)
        // AE prints the pixel count on stderr ("1234" or "1.2e+03").
        let text = r.stderr.split(separator: " ").first.map(String.init) ?? ""
        return Double(text.trimmingCharacters(in: .whitespacesAndNewlines)).map { Int($0) }
    }

    /// How many pixels differ inside a rectangle of two same-sized images.
    public static func differingPixels(_ a: String, _ b: String, x: Int, y: Int, width: Int, height: Int, fuzz: Int = 8) -> Int? {
        let dir = FileManager.default.temporaryDirectory
        let ca = dir.appendingPathComponent("crop-a-\(UUID().uuidString).png").path
        let cb = dir.appendingPathComponent("crop-b-\(UUID().uuidString).png").path
        defer { try? FileManager.default.removeItem(atPath: ca); try? FileManager.default.removeItem(atPath: cb) }
        for (src, dst) in [(a, ca), (b, cb)] {
            let r = ProcessRunner.run("/usr/bin/convert", [src, "-crop", "\(width)x\(height)+\(x)+\(y)", "+repage", dst], timeout: 30)
            if r.status != 0 { return nil }
        }
        return differingPixels(ca, cb, fuzz: fuzz)
    }
}
