import Foundation

/// How alike two frames are (`reel check --golden`): SSIM (Wang, Bovik, Sheikh and Simoncelli,
/// 2004) over 8×8 windows every 4 pixels — its mean, and its worst tile's mean — and PSNR, on two
/// luma planes of one size (the caller scales both frames to `size`). The windows' own SSIM is kept as a map, so that a diff image
/// can mark where the frames differ. Pure: table-tested on synthetic planes.
public struct FrameSimilarity: Sendable, Equatable {
    /// The mean SSIM of the windows: 1 for identical planes, lower as structure differs.
    public var ssim: Double
    /// The lowest mean SSIM of the picture's `tiles` (8 × 4): what the threshold is held to, so
    /// that a change confined to one part of the picture (a logo, a caption) is not averaged away
    /// by the rest, as the mean over the whole picture would be.
    public var worstTile: Double
    /// Peak signal-to-noise ratio in dB; `.infinity` for identical planes.
    public var psnr: Double
    /// Each window's SSIM, row by row (`columns` × `rows` windows at a `stride`-pixel step).
    public var map: [Double]
    public var columns: Int
    public var rows: Int

    /// The plane size frames are compared at (luma, BT.601), whatever their own size: small
    /// enough that the grain and noise a re-encode cannot keep average out (at 320 × 180 a
    /// test pattern's noise area scored 0.5 against its own re-encode at 1 Mbit/s), large enough
    /// that a 120 × 60 logo on a 1280 × 720 picture fills windows of its own.
    public static let size = (width: 160, height: 90)
    public static let window = 8
    public static let stride = 4
    /// A window below this SSIM is drawn as changed in the diff image.
    public static let changedWindow = 0.7
    public static let tiles = (columns: 8, rows: 4)

    /// `a` and `b`: `width` × `height` luma samples each, row by row.
    public static func compare(_ a: [UInt8], _ b: [UInt8], width: Int, height: Int) -> FrameSimilarity {
        precondition(a.count == width * height && b.count == width * height && width >= window && height >= window)
        let c1 = (0.01 * 255) * (0.01 * 255), c2 = (0.03 * 255) * (0.03 * 255)
        let columns = (width - window) / stride + 1, rows = (height - window) / stride + 1
        var map = [Double](repeating: 1, count: columns * rows)
        let n = Double(window * window)
        for row in 0..<rows {
            for column in 0..<columns {
                var sa = 0.0, sb = 0.0, saa = 0.0, sbb = 0.0, sab = 0.0
                for y in (row * stride)..<(row * stride + window) {
                    let base = y * width + column * stride
                    for i in base..<(base + window) {
                        let x = Double(a[i]), z = Double(b[i])
                        sa += x; sb += z; saa += x * x; sbb += z * z; sab += x * z
                    }
                }
                let ma = sa / n, mb = sb / n
                let va = saa / n - ma * ma, vb = sbb / n - mb * mb, cov = sab / n - ma * mb
                map[row * columns + column] = ((2 * ma * mb + c1) * (2 * cov + c2)) / ((ma * ma + mb * mb + c1) * (va + vb + c2))
            }
        }
        var squared = 0.0
        for i in a.indices {
            let d = Double(a[i]) - Double(b[i])
            squared += d * d
        }
        let mse = squared / Double(a.count)
        let psnr = mse == 0 ? Double.infinity : 10 * log10(255 * 255 / mse)
        // Each window counts in the tile its centre is in.
        var sums = [Double](repeating: 0, count: tiles.columns * tiles.rows), counts = sums
        for row in 0..<rows {
            for column in 0..<columns {
                let tx = min(tiles.columns - 1, (column * stride + window / 2) * tiles.columns / width)
                let ty = min(tiles.rows - 1, (row * stride + window / 2) * tiles.rows / height)
                sums[ty * tiles.columns + tx] += map[row * columns + column]
                counts[ty * tiles.columns + tx] += 1
            }
        }
        let worst = zip(sums, counts).filter { $0.1 > 0 }.map { $0.0 / $0.1 }.min() ?? 1
        return FrameSimilarity(ssim: map.reduce(0, +) / Double(map.count), worstTile: worst, psnr: psnr, map: map, columns: columns, rows: rows)
    }

    /// The windows whose SSIM is below `changedWindow`, as rectangles in 0…1 of the picture.
    public var changedAreas: [(x: Double, y: Double, width: Double, height: Double)] {
        let plane = Self.size
        var areas: [(x: Double, y: Double, width: Double, height: Double)] = []
        for row in 0..<rows {
            for column in 0..<columns where map[row * columns + column] < Self.changedWindow {
                areas.append((Double(column * Self.stride) / Double(plane.width), Double(row * Self.stride) / Double(plane.height),
                              Double(Self.window) / Double(plane.width), Double(Self.window) / Double(plane.height)))
            }
        }
        return areas
    }
}

/// `reel check --golden`: each captured frame against the frame of the same item (by its key) at
/// the same requested position in a reference run.
public enum GoldenFrames {
    /// The default SSIM below which a frame differs from its golden one (`--golden-threshold`),
    /// from measurements on the test clips (docs/BENCHMARKS.md, "Golden frames"): re-encodes at a
    /// quarter of the bitrate stay above it, a changed overlay falls below it.
    public static let defaultThreshold = 0.8

    /// What matches each item across runs: its input, redacted (an HLS rendition of
    /// `--renditions all` is its variant's URL), never its index, which a shard or an edited list
    /// changes; the same input again is "input #2", "input #3"….
    public static func keys(_ items: [CheckReport.Item]) -> [String] {
        var seen: [String: Int] = [:]
        return items.map { item in
            let input = Redactor.redactURL(item.input)
            seen[input, default: 0] += 1
            return seen[input]! == 1 ? input : "\(input) #\(seen[input]!)"
        }
    }

    /// The golden frame files of a reference report: key → requested position → file (relative
    /// to the report's directory).
    public static func index(_ report: CheckReport) -> [String: [String: String]] {
        var index: [String: [String: String]] = [:]
        for (key, item) in zip(keys(report.items), report.items) {
            for frame in item.frames {
                if let file = frame.file { index[key, default: [:]][frame.requested] = file }
            }
        }
        return index
    }
}
