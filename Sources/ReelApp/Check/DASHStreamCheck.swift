import Foundation
import ReelCore

/// `reel check`'s stream checks for a DASH item: the MPD's own problems (`DASHInspection`), then
/// every segment of every Representation fetched (`DASHSegments`; through the URI it is played
/// from, so a protected stream's segments come through the gateway): `missing-segment` for one
/// that cannot be fetched, `bandwidth-exceeded` when the media's measured bitrate is more than
/// 10 % over the Representation's `@bandwidth` (ISO/IEC 23009-1 §5.3.5.2: the bitrate a client
/// can count on to play it).
enum DASHStreamCheck {
    /// A Representation checked alone (`--renditions all`) that decodes at another size than its
    /// `@width`×`@height` says (as HLS's `RESOLUTION`, `HLSAudit`): `resolution-mismatch`.
    static func resolutionProblems(declared: HLSResolution?, width: Int?, height: Int?, name: String) -> [HLSProblem] {
        guard let declared, let width, let height, declared.width != width || declared.height != height else { return [] }
        return [HLSProblem(line: nil, severity: .error, code: "resolution-mismatch",
                           message: "\(name): the Representation declares \(declared.width)x\(declared.height) and decodes at \(width)x\(height).")]
    }

    /// The problems of the MPD at `uri`, or nil when it is not one that can be read; `only`:
    /// the segments of that Representation alone (a rendition checked on its own).
    static func problems(uri: String, timeout: Double, only: String? = nil) -> [HLSProblem]? {
        guard let url = URL(string: uri), let data = HLSStreamCheck.fetch(url, timeout: timeout) else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        let name = HLSStreamCheck.displayName(url)
        let inspected = DASHInspection.inspect(text, uri: uri, name: name)
        var problems: [HLSProblem] = []
        if case .object(let pairs) = inspected.json, case .array(let list)? = pairs.first(where: { $0.0 == "problems" })?.1 {
            for case .object(let p) in list {
                func string(_ key: String) -> String? { if case .string(let s)? = p.first(where: { $0.0 == key })?.1 { s } else { nil } }
                problems.append(HLSProblem(line: nil, severity: HLSProblem.Severity(rawValue: string("severity") ?? "") ?? .warning,
                                           code: string("code") ?? "?", message: "\(name): \(string("message") ?? "")"))
            }
        }
        for rep in DASHSegments.list(text, base: url) where only == nil || rep.id == only {
            var missing: [String] = []
            if let initialization = rep.initialization, HLSStreamCheck.fetch(initialization, timeout: timeout, from: url) == nil {
                missing.append(initialization.lastPathComponent)
            }
            var bytes = 0
            for segment in rep.media {
                if let body = HLSStreamCheck.fetch(segment, timeout: timeout, from: url) { bytes += body.count } else { missing.append(segment.lastPathComponent) }
            }
            if !missing.isEmpty {
                problems.append(HLSProblem(line: nil, severity: .error, code: "missing-segment",
                                           message: "\(name), Representation \(rep.id): \(missing.count) segment\(missing.count == 1 ? "" : "s") cannot be fetched (\(missing.prefix(3).joined(separator: ", "))\(missing.count > 3 ? ", …" : ""))"))
            } else if let declared = rep.bandwidth, declared > 0, let duration = rep.duration, duration > 0 {
                let measured = Double(bytes * 8) / duration
                if measured > Double(declared) * 1.1 {
                    problems.append(HLSProblem(line: nil, severity: .error, code: "bandwidth-exceeded",
                                               message: String(format: "%@, Representation %@: the media is %.0f kbit/s, more than 10 %% over @bandwidth %d kbit/s",
                                                               name, rep.id, measured / 1000, declared / 1000)))
                }
            }
        }
        return problems
    }
}
