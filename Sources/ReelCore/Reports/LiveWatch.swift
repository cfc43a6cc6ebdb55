import Foundation

/// `reel check --watch`: the rules a live HLS stream is held to over time, fed one reload of a
/// variant's media playlist at a time (`observe`) and the segments that could not be fetched
/// (`unavailable`); `across` compares the variants. Each rule is reported once per episode (when
/// it starts), with the time since the watch began. Pure: table-tested with synthetic reloads.
///
/// - `playlist-stale`: no new segment for more than 1.5 × the target duration (RFC 8216 §6.2.1:
///   a server makes a new playlist with a new segment available within that time; §6.3.4 reloads).
/// - `media-sequence-skip` / `media-sequence-backwards`: a segment listed again under another
///   media sequence number (§6.2.2: a segment's number never changes; numbers only grow).
/// - `discontinuity-sequence`: EXT-X-DISCONTINUITY-SEQUENCE that does not count the
///   discontinuities that left the playlist (§6.2.2).
/// - `pdt-drift`: PROGRAM-DATE-TIME of the newest segment against the wall clock moving by more
///   than the tolerance since the watch began (§4.3.2.6 maps segments to the wall clock).
/// - `segment-unavailable`: a listed segment that cannot be fetched (§6.2.2: a listed segment
///   must be available).
/// - Across variants: `discontinuity-mismatch` (one media sequence number in different
///   discontinuity sequences, §6.2.2, §6.2.4), `pdt-mismatch` (one media
///   sequence number at dates more than the tolerance apart) and `variant-lagging` (an edge two or
///   more segments behind the newest variant's on two reloads running).
public struct LiveWatch: Sendable {
    public struct Problem: Sendable, Equatable {
        /// Seconds since the watch began.
        public var at: Double
        public var variant: String
        public var code: String
        public var severity: HLSProblem.Severity
        public var message: String

        public init(at: Double, variant: String, code: String, severity: HLSProblem.Severity, message: String) {
            self.at = at; self.variant = variant; self.code = code; self.severity = severity; self.message = message
        }
    }

    /// The rules with a source, for docs and JUnit (one test case each).
    public static let rules: [(code: String, source: String)] = [
        ("playlist-stale", "RFC 8216 §6.2.1"), ("media-sequence-skip", "RFC 8216 §6.2.2"), ("media-sequence-backwards", "RFC 8216 §6.2.2"),
        ("discontinuity-sequence", "RFC 8216 §6.2.2"), ("pdt-drift", "RFC 8216 §4.3.2.6"), ("segment-unavailable", "RFC 8216 §6.2.2"), ("playlist-unavailable", "RFC 8216 §6.2.1"),
        ("discontinuity-mismatch", "RFC 8216 §6.2.2, §6.2.4"), ("pdt-mismatch", "RFC 8216 §6.2.4; Apple HLS authoring specification"),
        ("variant-lagging", "RFC 8216 §6.2.4"),
        ("black-video", "the picture, photographed while watching (as --renditions all)"),
        ("frozen-video", "the picture, photographed while watching (as --renditions all)"),
        ("silent-audio", "the sound, measured while watching (as --renditions all)"),
    ]

    /// The picture and sound as the item plays while it is watched, photographed every few
    /// seconds: `black-video` (a black photo), `frozen-video` (a photo the same as the one before
    /// it) and `silent-audio` (nothing above −60 dBFS since the last photo), each once per episode
    /// (`RenditionAudit`'s measures, over time).
    public struct Pictures: Sendable {
        public let name: String
        var previous: [UInt8]?
        var black = false
        var frozen = false
        var silent = false

        public init(name: String = "picture") { self.name = name }

        /// A photo's small luma picture (nil: no video) and the sound's peak since the last one
        /// (nil: no audio), at `at` seconds since the watch began.
        public mutating func photographed(luma: [UInt8]?, audio: (level: Double, samples: UInt64)?, at: Double) -> [Problem] {
            var problems: [Problem] = []
            if let luma {
                let isBlack = RenditionAudit.isBlack(luma)
                if isBlack, !black {
                    problems.append(Problem(at: at, variant: name, code: "black-video", severity: .error, message: "the picture is black"))
                }
                black = isBlack
                let same = !isBlack && previous.map { RenditionAudit.difference($0, luma) < 0.5 } == true
                if same, !frozen {
                    problems.append(Problem(at: at, variant: name, code: "frozen-video", severity: .error,
                                            message: "the picture has not moved since the photo before"))
                }
                frozen = same
                previous = luma
            }
            if let audio, audio.samples > 0 {
                let quiet = audio.level < RenditionAudit.silentPeak
                if quiet, !silent {
                    problems.append(Problem(at: at, variant: name, code: "silent-audio", severity: .error,
                                            message: "the sound has been below −60 dBFS since the photo before"))
                }
                silent = quiet
            }
            return problems
        }
    }

    /// One variant's state between reloads.
    public struct Variant: Sendable {
        public let name: String
        /// The last reload: each segment's URI → its media sequence number and discontinuity sequence.
        var previous: HLSMediaPlaylist?
        var lastNewSegment: Double?
        var stale = false
        /// The first PDT offset seen (wall clock − the newest segment's end), and whether a drift is open.
        var baseOffset: Double?
        var drifting = false
        /// The newest media sequence number, and its date.
        public private(set) var edge: Int?
        public private(set) var dates: [Int: Double] = [:]
        public private(set) var discontinuities: [Int: Int] = [:]
        var lagging = 0
        var reportedLag = false
        var unavailable: Set<String> = []
        /// The rules across variants already reported for this one.
        var reportedCodes: Set<String> = []

        public init(name: String) { self.name = name }

        /// Whether the last reload said the playlist has ended (EXT-X-ENDLIST or VOD).
        public var ended: Bool { previous.map { !$0.isLive } ?? false }

        func reported(_ code: String) -> Bool { reportedCodes.contains(code) }

        /// A reload at `at` (seconds since the watch began), the wall clock then being `now`
        /// (seconds since 1970); `slack`: how late a reload may see a change (the time between
        /// reloads), added to the staleness limit. Returns what it broke.
        public mutating func observe(_ playlist: HLSMediaPlaylist, at: Double, now: Double, slack: Double = 0) -> [Problem] {
            var problems: [Problem] = []
            let target = max(playlist.targetDuration, 0.5)
            let numbers = Dictionary(playlist.segments.enumerated().map { ($1.uri, playlist.mediaSequence + $0) }, uniquingKeysWith: { a, _ in a })
            var fresh = true
            if let previous {
                let old = Dictionary(previous.segments.enumerated().map { ($1.uri, previous.mediaSequence + $0) }, uniquingKeysWith: { a, _ in a })
                let newest = previous.mediaSequence + previous.segments.count - 1
                fresh = playlist.mediaSequence + playlist.segments.count - 1 > newest
                // A segment that was listed before keeps its number.
                var jumped = false
                if let (uri, was) = playlist.segments.lazy.compactMap({ s in old[s.uri].map { (s.uri, $0) } }).first, let number = numbers[uri], number != was {
                    jumped = true
                    let code = number > was ? "media-sequence-skip" : "media-sequence-backwards"
                    problems.append(Problem(at: at, variant: name, code: code, severity: .error,
                                            message: "the segment \(uri) was number \(was) and is now \(number): the media sequence \(number > was ? "jumped ahead" : "went back") by \(abs(number - was)) (RFC 8216 §6.2.2)"))
                } else if playlist.mediaSequence < previous.mediaSequence {
                    problems.append(Problem(at: at, variant: name, code: "media-sequence-backwards", severity: .error,
                                            message: "EXT-X-MEDIA-SEQUENCE went back from \(previous.mediaSequence) to \(playlist.mediaSequence) (RFC 8216 §6.2.2)"))
                }
                // The discontinuity sequence counts every EXT-X-DISCONTINUITY that left the
                // playlist: with its segment, or from a segment now first in it.
                if !jumped, playlist.mediaSequence >= previous.mediaSequence {
                    func tags(_ p: HLSMediaPlaylist) -> Set<Int> {
                        Set(p.segments.enumerated().filter { $0.element.discontinuity }.map { p.mediaSequence + $0.offset })
                    }
                    let left = tags(previous).subtracting(tags(playlist)).count
                    let expected = previous.discontinuitySequence + left
                    if playlist.discontinuitySequence != expected {
                        problems.append(Problem(at: at, variant: name, code: "discontinuity-sequence", severity: .error,
                                                message: "EXT-X-DISCONTINUITY-SEQUENCE is \(playlist.discontinuitySequence), \(expected) counting the \(left) discontinuit\(left == 1 ? "y" : "ies") that left the playlist (RFC 8216 §6.2.2)"))
                    }
                }
            }
            // Staleness: a reload with a new segment resets the clock.
            if fresh || lastNewSegment == nil {
                lastNewSegment = at
                stale = false
            } else if let last = lastNewSegment, at - last > 1.5 * target + slack, !stale {
                stale = true
                problems.append(Problem(at: at, variant: name, code: "playlist-stale", severity: .error,
                                        message: String(format: "no new segment for %.1f s, more than 1.5 × the target duration (%.0f s) (RFC 8216 §6.2.1)", at - last, target)))
            }
            // Dates and discontinuity sequence numbers by media sequence number.
            var discontinuity = playlist.discontinuitySequence
            var date: Double?
            for (i, segment) in playlist.segments.enumerated() {
                let n = playlist.mediaSequence + i
                if segment.discontinuity, i > 0 { discontinuity += 1 }
                discontinuities[n] = discontinuity
                if let pdt = segment.programDateTime.flatMap(ProgramDate.parse) { date = pdt.timeIntervalSince1970 }
                if let d = date {
                    dates[n] = d
                    date = d + segment.duration
                }
            }
            for n in dates.keys where n < playlist.mediaSequence - 64 { dates[n] = nil; discontinuities[n] = nil }
            let newest = playlist.mediaSequence + playlist.segments.count - 1
            edge = playlist.segments.isEmpty ? edge : newest
            // PDT against the wall clock, measured when the edge moves (the freshest moment).
            if fresh, let last = playlist.segments.last, let start = dates[newest] {
                let offset = now - (start + last.duration)
                let tolerance = max(2, target)
                if let base = baseOffset {
                    if abs(offset - base) > tolerance, !drifting {
                        drifting = true
                        problems.append(Problem(at: at, variant: name, code: "pdt-drift", severity: .error,
                                                message: String(format: "PROGRAM-DATE-TIME moved %+.1f s against the wall clock since the watch began (more than %.0f s; RFC 8216 §4.3.2.6)", base - offset, tolerance)))
                    } else if abs(offset - base) <= tolerance {
                        drifting = false
                    }
                } else {
                    baseOffset = offset
                }
            }
            previous = playlist
            return problems
        }

        /// A listed segment that could not be fetched (`status`: the HTTP status, nil for a
        /// connection that failed).
        public mutating func unavailable(_ uri: String, status: Int?, at: Double) -> Problem? {
            guard unavailable.insert(uri).inserted else { return nil }
            return Problem(at: at, variant: name, code: "segment-unavailable", severity: .error,
                           message: "the listed segment \(uri) cannot be fetched (\(status.map { "HTTP \($0)" } ?? "no answer")) (RFC 8216 §6.2.2)")
        }
    }

    /// The variants against each other after a round of reloads.
    public static func across(_ variants: inout [Variant], at: Double, tolerance: Double = 1) -> [Problem] {
        guard variants.count > 1 else { return [] }
        var problems: [Problem] = []
        let reference = variants[0]
        for i in variants.indices.dropFirst() {
            let v = variants[i]
            let shared = Set(reference.discontinuities.keys).intersection(v.discontinuities.keys)
            if let n = shared.sorted().last(where: { reference.discontinuities[$0] != v.discontinuities[$0] }), !v.reported("discontinuity-mismatch") {
                problems.append(Problem(at: at, variant: v.name, code: "discontinuity-mismatch", severity: .error,
                                        message: "segment \(n) is in discontinuity sequence \(v.discontinuities[n]!) here and \(reference.discontinuities[n]!) in \(reference.name)"))
                variants[i].reportedCodes.insert("discontinuity-mismatch")
            }
            if let n = Set(reference.dates.keys).intersection(v.dates.keys).sorted().last(where: { abs(reference.dates[$0]! - v.dates[$0]!) > tolerance }),
               !v.reported("pdt-mismatch") {
                problems.append(Problem(at: at, variant: v.name, code: "pdt-mismatch", severity: .error,
                                        message: String(format: "segment %d is dated %+.1f s from %@'s", n, v.dates[n]! - reference.dates[n]!, reference.name)))
                variants[i].reportedCodes.insert("pdt-mismatch")
            }
        }
        let newest = variants.compactMap(\.edge).max()
        for i in variants.indices {
            guard let newest, let edge = variants[i].edge else { continue }
            if newest - edge >= 2 {
                variants[i].lagging += 1
                if variants[i].lagging >= 2, !variants[i].reportedLag {
                    variants[i].reportedLag = true
                    problems.append(Problem(at: at, variant: variants[i].name, code: "variant-lagging", severity: .warning,
                                            message: "its newest segment is \(newest - edge) behind the newest variant's (RFC 8216 §6.2.4)"))
                }
            } else {
                variants[i].lagging = 0
                variants[i].reportedLag = false
            }
        }
        return problems
    }
}
