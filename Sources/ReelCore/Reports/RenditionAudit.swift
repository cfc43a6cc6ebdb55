/// What `reel check --renditions all` flags in each rendition's pictures and sound: black frames,
/// frozen video (every photographed frame the same), silent audio, and a `RESOLUTION` whose aspect
/// ratio disagrees with the decoded picture. Pure: small luma pictures and a peak level in.
public enum RenditionAudit {
    /// A frame is black when no pixel of its small luma picture is brighter than this (of 255;
    /// video black is 16): anything bright in it (a ball on black, a caption) makes it a picture.
    public static let blackLuma: UInt8 = 40
    /// Below this peak (of full scale, about −60 dBFS) audio that played is silent.
    public static let silentPeak = 0.001

    public static func isBlack(_ luma: [UInt8]) -> Bool {
        guard !luma.isEmpty else { return false }
        return (luma.max() ?? 0) <= blackLuma
    }

    /// The mean absolute difference of two luma pictures of the same size.
    public static func difference(_ a: [UInt8], _ b: [UInt8]) -> Double {
        guard a.count == b.count, !a.isEmpty else { return .infinity }
        return Double(zip(a, b).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(a.count)
    }

    /// - Parameters:
    ///   - frames: the luma of each photographed frame, in order (at different times).
    ///   - audioPeak: the loudest sample while the rendition played, with the samples measured;
    ///     nil when it has no audio.
    ///   - declared / decoded: RESOLUTION and the decoded size, for the aspect ratio.
    public static func problems(frames: [[UInt8]], audioPeak: (level: Double, samples: UInt64)?, declared: HLSResolution?,
                                decoded: (width: Int, height: Int)?, name: String) -> [HLSProblem] {
        var problems: [HLSProblem] = []
        func add(_ severity: HLSProblem.Severity, _ code: String, _ message: String) {
            problems.append(HLSProblem(line: nil, severity: severity, code: code, message: "\(name): \(message)"))
        }
        let black = frames.filter(isBlack).count
        if !frames.isEmpty, black == frames.count {
            add(.error, "black-video", "every photographed frame is black.")
        } else if black > 0 {
            add(.warning, "black-frame", "\(black) of \(frames.count) photographed frames are black.")
        }
        if frames.count >= 2, black < frames.count, zip(frames, frames.dropFirst()).allSatisfy({ difference($0, $1) < 0.5 }) {
            add(.error, "frozen-video", "the \(frames.count) photographed frames are the same picture: the video does not move.")
        }
        if let audioPeak, audioPeak.samples > 0, audioPeak.level < silentPeak {
            add(.error, "silent-audio", "the audio is silent (its loudest sample is below −60 dBFS).")
        }
        if let declared, let decoded, declared.height > 0, decoded.height > 0 {
            let a = Double(declared.width) / Double(declared.height), b = Double(decoded.width) / Double(decoded.height)
            if abs(a - b) / b > 0.02 {
                add(.error, "aspect-mismatch", "RESOLUTION=\(declared) has another aspect ratio than the decoded \(decoded.width)x\(decoded.height).")
            }
        }
        return problems
    }
}
