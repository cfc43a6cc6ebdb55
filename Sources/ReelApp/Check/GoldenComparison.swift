import Foundation
import ReelCore
import ReelUI

/// `reel check --golden DIR`: every captured frame against the frame of the same item (by its key,
/// `GoldenFrames.keys`) and requested position in a reference run's report directory, by SSIM and
/// PSNR on luma at a fixed size (`FrameSimilarity`). Below the threshold is a `golden-mismatch`
/// problem (an error) with a diff image; the golden frame is copied into the report so that
/// index.html and the contact sheet show the two side by side. `--update-golden` makes this run
/// the reference instead.
enum GoldenComparison {
    struct Options {
        var directory: URL
        var threshold: Double
        var update: Bool
        /// `--golden-mask`: areas left out of the comparison (what may move: a clock, a counter).
        var masks: [(x: Int, y: Int, width: Int, height: Int)] = []
        /// `--golden-region`: areas held to their own threshold, apart from the rest.
        var regions: [GoldenRegion] = []
    }

    struct Failure: Error, LocalizedError {
        var errorDescription: String?
    }

    /// The reference frames: key → requested position → file, relative to `dir` (report.json,
    /// and the shards' report-shard-K-of-N.json).
    static func reference(_ dir: URL) throws -> [String: [String: String]] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? [])
            .filter { $0 == "report.json" || ($0.hasPrefix("report-shard-") && $0.hasSuffix(".json")) }.sorted()
        guard !names.isEmpty else {
            throw Failure(errorDescription: "--golden: \(dir.path) has no report.json (make it the reference with --update-golden first)")
        }
        var index: [String: [String: String]] = [:]
        for name in names {
            guard let data = FileManager.default.contents(atPath: dir.appendingPathComponent(name).path) else {
                throw Failure(errorDescription: "--golden: \(name) in \(dir.path) cannot be read")
            }
            let report: CheckReport
            do { report = try CheckReport.decode(data) } catch { throw Failure(errorDescription: "--golden: \(name) in \(dir.path): \(error)") }
            index.merge(GoldenFrames.index(report)) { $0.merging($1) { _, new in new } }
        }
        return index
    }

    static func compare(_ items: [CheckReport.Item], reportDirectory: URL, options: Options) throws -> [CheckReport.Item] {
        let index = try reference(options.directory)
        let fm = FileManager.default
        let goldenDir = reportDirectory.appendingPathComponent("golden", isDirectory: true)
        var out = items
        for (i, key) in GoldenFrames.keys(items).enumerated() {
            for (j, frame) in items[i].frames.enumerated() {
                guard let file = frame.file else { continue }
                guard let reference = index[key]?[frame.requested] else {
                    out[i].problems.append(HLSProblem(line: nil, severity: .warning, code: "golden-missing",
                                                      message: "no golden frame for this item at \(frame.requested) in \(options.directory.lastPathComponent)"))
                    continue
                }
                let referencePath = options.directory.appendingPathComponent(reference).path
                let currentPath = reportDirectory.appendingPathComponent(file).path
                // The reference folder is someone else's: only a regular `frames/<name>` PNG of a
                // sane size is opened (a `../` path was copied into the report, a FIFO hung the run,
                // a 20,000² PNG cost 1.67 GB).
                if let why = Self.unusable(reference: reference, in: options.directory) {
                    out[i].problems.append(HLSProblem(line: nil, severity: .warning, code: "golden-unreadable",
                                                      message: "the golden frame at \(frame.requested) (\(reference)) is not used: \(why)"))
                    continue
                }
                guard let a = GoldenFrameImages.luma(ofPNG: referencePath), let b = GoldenFrameImages.luma(ofPNG: currentPath) else {
                    out[i].problems.append(HLSProblem(line: nil, severity: .warning, code: "golden-unreadable",
                                                      message: "the golden frame at \(frame.requested) (\(reference)) cannot be read"))
                    continue
                }
                // Masked areas and regions with their own threshold are left out of the whole's
                // comparison; each region is then judged alone.
                var (ma, mb) = (a, b)
                let frameSize = GoldenFrameImages.size(ofPNG: currentPath) ?? (FrameSimilarity.size.width, FrameSimilarity.size.height)
                let apart = options.masks + options.regions.map { (x: $0.x, y: $0.y, width: $0.width, height: $0.height) }
                FrameSimilarity.mask(&ma, rects: apart, frame: frameSize)
                FrameSimilarity.mask(&mb, rects: apart, frame: frameSize)
                let similarity = FrameSimilarity.compare(ma, mb, width: FrameSimilarity.size.width, height: FrameSimilarity.size.height)
                if !options.regions.isEmpty {
                    var ra = a, rb = b
                    FrameSimilarity.mask(&ra, rects: options.masks, frame: frameSize)
                    FrameSimilarity.mask(&rb, rects: options.masks, frame: frameSize)
                    let whole = FrameSimilarity.compare(ra, rb, width: FrameSimilarity.size.width, height: FrameSimilarity.size.height)
                    for r in options.regions {
                        guard let score = whole.ssim(inRegion: r, frame: frameSize), score < r.threshold else { continue }
                        out[i].problems.append(HLSProblem(line: nil, severity: .error, code: "golden-mismatch",
                                                          message: String(format: "the frame at %@ differs from the golden one in the region %d,%d,%d,%d: SSIM %.3f, below its %.3f",
                                                                          frame.requested, r.x, r.y, r.width, r.height, score, r.threshold)))
                    }
                }
                try fm.createDirectory(at: goldenDir, withIntermediateDirectories: true)
                let copyName = "golden/" + (reference as NSString).lastPathComponent
                let copy = reportDirectory.appendingPathComponent(copyName)
                if copy.standardizedFileURL.path != URL(fileURLWithPath: referencePath).standardizedFileURL.path {
                    try CheckMerge.copyBytes(URL(fileURLWithPath: referencePath), to: copy)
                }
                let same = similarity.worstTile >= options.threshold
                var diff: String?
                let score = String(format: "SSIM %.3f (worst tile %.3f)", similarity.ssim, similarity.worstTile)
                    + (similarity.psnr.isFinite ? String(format: ", PSNR %.1f dB", similarity.psnr) : "")
                if !same {
                    let name = "frames/" + ((file as NSString).lastPathComponent as NSString).deletingPathExtension + "-diff.png"
                    do {
                        try GoldenFrameImages.writeDiff(frame: currentPath, areas: similarity.changedAreas, to: reportDirectory.appendingPathComponent(name).path)
                        diff = name
                    } catch {}
                    out[i].problems.append(HLSProblem(line: nil, severity: .error, code: "golden-mismatch",
                                                      message: "the frame at \(frame.requested) differs from the golden one: \(score); the worst tile is below \(options.threshold)"))
                }
                out[i].frames[j].golden = CheckReport.Golden(file: copyName, ssim: similarity.ssim, worstTile: similarity.worstTile,
                                                             psnr: similarity.psnr.isFinite ? similarity.psnr : nil,
                                                             diff: diff, same: same)
            }
        }
        return out
    }

    /// The most pixels a golden frame may have (8K UHD).
    static let maximumPixels = 7680 * 4320

    /// Why a reference frame is not opened, or nil when it may be: a regular file named
    /// `frames/<name>`, a PNG whose header says at most `maximumPixels`.
    static func unusable(reference: String, in directory: URL) -> String? {
        guard CaptureFileName.isShardFramePath(reference) else { return "only a file in frames/ is taken" }
        guard let path = LocalFileFacts.regularFile(reference, inside: directory)?.path else {
            return "not a regular file inside the folder (a link is not followed)"
        }
        guard let handle = FileHandle(forReadingAtPath: path) else { return "it cannot be read" }
        defer { try? handle.close() }
        let head = [UInt8]((try? handle.read(upToCount: 24)) ?? Data())
        guard head.count == 24, head.starts(with: [0x89, 0x50, 0x4E, 0x47]) else { return "not a PNG file" }
        let width = head[16..<20].reduce(0) { $0 << 8 | Int($1) }, height = head[20..<24].reduce(0) { $0 << 8 | Int($1) }
        guard width > 0, height > 0, width * height <= maximumPixels else { return "\(width)x\(height) is larger than a frame can be" }
        return nil
    }

    /// Makes the report in `reportDirectory` the reference in `options.directory`: its frames and
    /// its report (report.json, or report-shard-K-of-N.json for a shard, so that shards' runs
    /// side by side do not overwrite one another).
    static func store(reportDirectory: URL, options: Options, shard: CheckShard?) throws {
        let fm = FileManager.default
        let target = options.directory
        try fm.createDirectory(at: target.appendingPathComponent("frames", isDirectory: true), withIntermediateDirectories: true)
        let reportName = shard.map { "report-shard-\($0.index)-of-\($0.count).json" } ?? "report.json"
        let same = target.standardizedFileURL.path == reportDirectory.standardizedFileURL.path
        if !same {
            let frames = reportDirectory.appendingPathComponent("frames", isDirectory: true)
            for name in (try? fm.contentsOfDirectory(atPath: frames.path)) ?? [] where name.hasSuffix(".png") && !name.hasSuffix("-diff.png") {
                let to = target.appendingPathComponent("frames/" + name)
                try? fm.removeItem(at: to)
                try fm.copyItem(at: frames.appendingPathComponent(name), to: to)
            }
        }
        let from = reportDirectory.appendingPathComponent("report.json")
        let to = target.appendingPathComponent(reportName)
        if from.standardizedFileURL.path != to.standardizedFileURL.path {
            try? fm.removeItem(at: to)
            try fm.copyItem(at: from, to: to)
        }
    }
}
