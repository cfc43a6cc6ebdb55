import Foundation

/// A video frame captured as PNG, with the presentation time of that frame.
public struct CapturedFrame: Sendable, Equatable {
    public var png: Data
    /// The frame's PTS in seconds (nil when the sink did not say).
    public var time: Double?

    public init(png: Data, time: Double?) {
        self.png = png
        self.time = time
    }

    /// Width and height from the PNG's IHDR chunk; nil when the data is not a PNG.
    public var size: (width: Int, height: Int)? { Self.pngSize(png) }

    public static func pngSize(_ data: Data) -> (width: Int, height: Int)? {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let bytes = [UInt8](data.prefix(24))
        guard bytes.count == 24, Array(bytes[0..<8]) == signature, Array(bytes[12..<16]) == Array("IHDR".utf8) else { return nil }
        func be32(_ i: Int) -> Int { Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3]) }
        return (be32(16), be32(20))
    }
}
