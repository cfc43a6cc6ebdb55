import Foundation

/// Stream checks like Apple's mediastreamvalidator, on measured facts: each variant's segment
/// bitrates against its `BANDWIDTH` / `AVERAGE-BANDWIDTH` (VOD: within 10 %), segments that do not
/// start with a keyframe, `PROGRAM-DATE-TIME` missing on live, and `RESOLUTION` / `CODECS`
/// missing or disagreeing with the decoded stream. Pure: `reel check` measures, this judges.
public enum HLSAudit {
    /// What was measured of one segment.
    public struct Segment: Sendable, Equatable {
        public var uri: String
        public var duration: Double
        /// Its size in bytes; nil when it could not be fetched.
        public var bytes: Int?
        /// nil when not known (not MPEG-TS, no video).
        public var startsWithKeyframe: Bool?

        public init(uri: String, duration: Double, bytes: Int?, startsWithKeyframe: Bool?) {
            self.uri = uri
            self.duration = duration
            self.bytes = bytes
            self.startsWithKeyframe = startsWithKeyframe
        }
    }

    /// The measured peak (the largest segment bitrate) and average (all bits over all time), bit/s.
    public static func bitrates(_ segments: [Segment]) -> (peak: Double, average: Double)? {
        // Segments under a millisecond say nothing of a bitrate (an EXTINF of 1e-300 made it infinite).
        let measured = segments.filter { $0.bytes != nil && $0.duration >= 0.001 }
        guard !measured.isEmpty else { return nil }
        let peak = measured.map { Double($0.bytes!) * 8 / $0.duration }.max() ?? 0
        let seconds = measured.reduce(0) { $0 + $1.duration }
        let bits = measured.reduce(0.0) { $0 + Double($1.bytes!) * 8 }
        return (peak, bits / seconds)
    }

    /// The problems of one media playlist (`name` says which, in messages), measured against the
    /// variant that lists it (nil: a media playlist checked on its own).
    public static func audit(_ media: HLSMediaPlaylist, segments: [Segment], variant: HLSVariant?, name: String) -> [HLSProblem] {
        var problems: [HLSProblem] = []
        func add(_ severity: HLSProblem.Severity, _ code: String, _ message: String) {
            problems.append(HLSProblem(line: nil, severity: severity, code: code, message: "\(name): \(message)"))
        }
        for s in segments where s.startsWithKeyframe == false {
            add(.error, "segment-not-keyframe", "\(MediaLocator.displayName(of: s.uri)) does not start with a keyframe.")
        }
        for s in segments where s.bytes == nil {
            add(.error, "segment-unavailable", "\(MediaLocator.displayName(of: s.uri)) could not be fetched.")
        }
        if media.isLive, media.segments.contains(where: { $0.programDateTime == nil }) {
            add(.warning, "program-date-time-missing", "a live playlist whose segments do not all carry EXT-X-PROGRAM-DATE-TIME.")
        }
        guard let variant, let measured = bitrates(segments) else { return problems }
        let vod = !media.isLive
        if let declared = variant.bandwidth {
            if measured.peak > Double(declared) * 1.1 {
                add(vod ? .error : .warning, "bandwidth-exceeded",
                    "the measured peak bitrate \(BoundedNumber.wholeNumber(measured.peak.rounded(.down), in: 0...Int.max >> 8).map(String.init) ?? "far too many") bit/s exceeds BANDWIDTH=\(declared) by more than 10 %.")
            }
        } else {
            add(.error, "missing-attribute", "the variant has no BANDWIDTH.")
        }
        if let average = variant.averageBandwidth, vod, abs(measured.average - Double(average)) > Double(average) * 0.1 {
            add(.error, "average-bandwidth-mismatch",
                "the measured average bitrate \(BoundedNumber.wholeNumber(measured.average.rounded(.down), in: 0...Int.max >> 8).map(String.init) ?? "far too many") bit/s is more than 10 % from AVERAGE-BANDWIDTH=\(average).")
        }
        return problems
    }

    /// The codec family a CODECS entry names ("H.264" for avc1.4d401f), nil for others.
    public static func videoFamily(_ codec: String) -> String? {
        let tag = codec.lowercased().split(separator: ".").first.map(String.init) ?? ""
        switch tag {
        case "avc1", "avc3": return "H.264"
        case "hvc1", "hev1": return "H.265"
        case "av01": return "AV1"
        case "vp09": return "VP9"
        default: return nil
        }
    }

    /// A variant's declarations against the decoded stream (`width`×`height`, frame rate and video
    /// codec name as GStreamer gives them; nil when unknown).
    public static func declarations(_ variant: HLSVariant, width: Int?, height: Int?, frameRate: Double? = nil, videoCodec: String? = nil,
                                    name: String) -> [HLSProblem] {
        var problems: [HLSProblem] = []
        if variant.codecs.isEmpty {
            problems.append(HLSProblem(line: nil, severity: .warning, code: "codecs-missing", message: "\(name): the variant has no CODECS."))
        } else if let decoded = videoCodec, let declared = variant.codecs.compactMap(videoFamily).first {
            let spoken = decoded.uppercased().replacingOccurrences(of: "HEVC", with: "H.265")
            if !spoken.contains(declared.uppercased()) {
                problems.append(HLSProblem(line: nil, severity: .error, code: "codecs-mismatch",
                                           message: "\(name): CODECS says \(declared) but the video decodes as \(decoded)."))
            }
        }
        if width != nil, variant.frameRate == nil {
            problems.append(HLSProblem(line: nil, severity: .warning, code: "frame-rate-missing", message: "\(name): the variant has no FRAME-RATE."))
        } else if let declared = variant.frameRate, let frameRate, abs(declared - frameRate) > 0.01 * frameRate + 0.01 {
            problems.append(HLSProblem(line: nil, severity: .error, code: "frame-rate-mismatch",
                                       message: "\(name): FRAME-RATE=\(declared) but the video runs at \(String(format: "%.3f", frameRate)) fps."))
        }
        if let width, let height {
            if let r = variant.resolution {
                if r.width != width || r.height != height {
                    problems.append(HLSProblem(line: nil, severity: .error, code: "resolution-mismatch",
                                               message: "\(name): RESOLUTION=\(r) but the stream decodes at \(width)x\(height)."))
                }
            } else {
                problems.append(HLSProblem(line: nil, severity: .warning, code: "resolution-missing", message: "\(name): the variant has no RESOLUTION."))
            }
        }
        return problems
    }
}
