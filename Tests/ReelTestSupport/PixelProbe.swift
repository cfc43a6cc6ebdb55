import Foundation

/// Reads pixels out of image files with ImageMagick (installed by setup.sh), so tests can check
/// what a frame or a window shows.
public enum PixelProbe {
    public struct RGB: Equatable, Sendable, CustomStringConvertible {
        public var r: Int, g: Int, b: Int
        public var description: String { "rgb(\(r),\(g),\(b))" }
        public init(r: Int, g: Int, b: Int) { self.r = r; self.g = g; self.b = b }
        public func distance(to o: RGB) -> Int { abs(r - o.r) + abs(g - o.g) + abs(b - o.b) }
    }

    /// The color at (x, y) of an image file.
    public static func pixel(_ file: String, x: Int, y: Int) -> RGB? {
        let r = ProcessRunner.run("/usr/bin/convert", [file, "-crop", "1x1+\(x)+\(y)", "+repage", "-depth", "8", "txt:-"], timeout: 30)
        // "0,0: (255,0,0)  #FF0000  red"
        guard r.status == 0, let line = r.lines.last, let open = line.firstIndex(of: "("), let close = line.firstIndex(of: ")") else { return nil }
        let nums = line[line.index(after: open)..<close].split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard nums.count >= 3 else { return nil }
        return RGB(r: Int(nums[0]), g: Int(nums[1]), b: Int(nums[2]))
    }

    /// White text in a region of an image (subtitles): the share of its pixels that are white
    /// (within 20 %) and the width of the box that holds them (0 when none).
    public static func whiteText(_ file: String, region: (x: Int, y: Int, width: Int, height: Int)) -> (share: Double, width: Int) {
        let mask = [file, "-crop", "\(region.width)x\(region.height)+\(region.x)+\(region.y)", "+repage",
                    "-fuzz", "20%", "-fill", "black", "+opaque", "white", "-fill", "white", "-opaque", "white", "-colorspace", "Gray"]
        let share = Double(ProcessRunner.run("/usr/bin/convert", mask + ["-format", "%[fx:mean]", "info:"], timeout: 30).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        guard share > 0 else { return (share, 0) }
        let box = ProcessRunner.run("/usr/bin/convert", mask + ["-trim", "-format", "%w", "info:"], timeout: 30).stdout
        return (share, Int(box.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1)
    }

    /// The box around the white text in a region of an image (x, y relative to the region), nil
    /// when there is none.
    public static func whiteTextBox(_ file: String, region: (x: Int, y: Int, width: Int, height: Int)) -> (x: Int, y: Int, width: Int, height: Int)? {
        let mask = [file, "-crop", "\(region.width)x\(region.height)+\(region.x)+\(region.y)", "+repage",
                    "-fuzz", "20%", "-fill", "black", "+opaque", "white", "-fill", "white", "-opaque", "white", "-colorspace", "Gray"]
        let out = ProcessRunner.run("/usr/bin/convert", mask + ["-trim", "-format", "%w %h %X %Y", "info:"], timeout: 30).stdout
        let n = out.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "+", with: "")) }
        guard n.count == 4, n[0] > 1 || n[1] > 1 else { return nil }  // -trim of an all-black image leaves 1×1
        return (n[2], n[3], n[0], n[1])
    }

    /// Width and height of an image file.
    public static func size(_ file: String) -> (width: Int, height: Int)? {
        let r = ProcessRunner.run("/usr/bin/identify", ["-format", "%w %h", file], timeout: 30)
        let parts = r.stdout.split(separator: " ").compactMap { Int($0) }
        return parts.count == 2 ? (parts[0], parts[1]) : nil
    }

    /// The mean absolute error between two images (0 = identical, 1 = opposite), and a diff image
    /// written to `diffPath` when given.
    public static func difference(_ a: String, _ b: String, diffPath: String? = nil) -> Double? {
        let r = ProcessRunner.run("/usr/bin/compare", ["-metric", "MAE", a, b, diffPath ?? "null:"], timeout: 60)
        // compare prints "1234.5 (0.0188)" on stderr and exits 1 when images differ.
        guard let open = r.stderr.firstIndex(of: "("), let close = r.stderr.firstIndex(of: ")") else { return nil }
        return Double(r.stderr[r.stderr.index(after: open)..<close])
    }

    /// How many pixels differ between two images by more than `fuzz` percent (colour-conversion
    /// rounding stays under it; a moved object does not). nil when they cannot be compared.
    public static func differingPixels(_ a: String, _ b: String, fuzz: Int = 5) -> Int? {
        let r = ProcessRunner.run("/usr/bin/compare", ["-metric", "AE", "-fuzz", "\(fuzz)%", a, b, "null:"], timeout: 60)
        return Double(r.stderr.split(separator: " ").first.map(String.init) ?? "").map { Int($0) }
    }

    /// Where a color is in an image: the box around every pixel within `fuzz` of it, and how many
    /// pixels those are (nil when none). A picture on screen is one filled box; the same picture
    /// twice, or cut by another window, is a box the pixels do not fill.
    public static func box(of color: RGB, in file: String, fuzz: Int = 12) -> (x: Int, y: Int, width: Int, height: Int, pixels: Int)? {
        let target = "rgb(\(color.r),\(color.g),\(color.b))"
        let mask = [file, "-alpha", "off", "-fuzz", "\(fuzz)%", "-fill", "black", "+opaque", target, "-fill", "white", "-opaque", target]
        let out = ProcessRunner.run("/usr/bin/convert", mask + ["-format", "%@ %[fx:mean*w*h]", "info:"], timeout: 60).stdout
        // "640x360+12+80 230400"
        let parts = out.split(separator: " ")
        guard parts.count == 2, let pixels = Double(parts[1]), pixels >= 1 else { return nil }
        let geometry = parts[0].split(whereSeparator: { $0 == "x" || $0 == "+" }).compactMap { Int($0) }
        guard geometry.count == 4 else { return nil }
        return (geometry[2], geometry[3], geometry[0], geometry[1], Int(pixels.rounded()))
    }
}
