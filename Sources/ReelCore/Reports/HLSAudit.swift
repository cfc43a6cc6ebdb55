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
        let measured = segments.filter { $0.bytes != nil && $0.duration > 0 }
        guard !measured.isEmpty else { return nil }
        let peak = measured.map { Double($0.bytes! * 8) / $0.duration }.max() ?? 0
        let seconds = measured.reduce(0) { $0 + $1.duration }
        let bits = measured.reduce(0.0) { $0 + Double($1.bytes! * 8) }
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
                    "the measured peak bitrate \(Int(measured.peak)) bit/s exceeds BANDWIDTH=\(declared) by more than 10 %.")
            }
        } else {
            add(.error, "missing-attribute", "the variant has no BANDWIDTH.")
        }
        if let average = variant.averageBandwidth, vod, abs(measured.average - Double(average)) > Double(average) * 0.1 {
            add(.error, "average-bandwidth-mismatch",
                "the measured average bitrate \(Int(measured.average)) bit/s is more than 10 % from AVERAGE-BANDWIDTH=\(average).")
        }
        return problems
    }

    /// A variant's declarations against the decoded stream (`width`×`height`, nil when unknown).
    public static func declarations(_ variant: HLSVariant, width: Int?, height: Int?, name: String) -> [HLSProblem] {
        var problems: [HLSProblem] = []
        if variant.codecs.isEmpty {
            problems.append(HLSProblem(line: nil, severity: .warning, code: "codecs-missing", message: "\(name): the variant has no CODECS."))
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
