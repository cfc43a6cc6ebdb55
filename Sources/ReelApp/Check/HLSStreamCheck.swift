import Foundation
import ReelCore
import ReelGateway

/// `reel check`'s stream checks for an HLS item: reads the playlist (and, for a multivariant one,
/// every variant's), fetches every segment to measure its size and whether it starts with a
/// keyframe, and asks `HLSAudit` (and the lenient parser) what is wrong. The item is fetched
/// through the URI it is played from, so a protected stream's segments come through the gateway
/// with their credentials.
enum HLSStreamCheck {
    /// The problems of the stream at `uri`, or nil when it is not an HLS playlist.
    /// - Parameters: width, height: what the item decoded to (for a single-variant check).
    /// - Parameter variant: what a master declares of this media playlist (`--renditions all`).
    static func problems(uri: String, width: Int?, height: Int?, frameRate: Double? = nil, videoCodec: String? = nil,
                         timeout: Double, variant: HLSVariant? = nil) -> [HLSProblem]? {
        guard let url = URL(string: uri), let data = fetch(url, timeout: timeout) else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        guard let parsed = try? HLSPlaylist.parseReporting(text, url: url) else { return nil }
        let name = displayName(url)
        var problems = parsed.problems.map { named($0, name) }
        switch parsed.playlist {
        case .media(let media):
            problems += HLSAudit.audit(media, segments: measure(media, base: url, timeout: timeout), variant: variant, name: name)
            if let variant {
                problems += HLSAudit.declarations(variant, width: width, height: height, frameRate: frameRate, videoCodec: videoCodec, name: name)
            }
        case .master(let master):
            for variant in master.variants {
                guard let variantURL = URIReference.resolve(variant.uri, against: url) else { continue }
                let variantName = displayName(variantURL)
                guard let body = fetch(variantURL, timeout: timeout, from: url),
                      let media = try? HLSPlaylist.parseReporting(String(decoding: body, as: UTF8.self), url: variantURL, importable: parsed.variables) else {
                    problems.append(HLSProblem(line: nil, severity: .error, code: "variant-unavailable", message: "\(variantName): the variant playlist could not be read."))
                    continue
                }
                problems += media.problems.map { named($0, variantName) }
                guard let playlist = media.playlist.media else { continue }
                problems += HLSAudit.audit(playlist, segments: measure(playlist, base: variantURL, timeout: timeout), variant: variant, name: variantName)
                if master.variants.count == 1 {
                    problems += HLSAudit.declarations(variant, width: width, height: height, frameRate: frameRate, videoCodec: videoCodec, name: variantName)
                }
            }
            for iFrames in master.iFramePlaylists {
                guard let iURL = URIReference.resolve(iFrames.uri, against: url), let body = fetch(iURL, timeout: timeout, from: url),
                      let media = try? HLSPlaylist.parseReporting(String(decoding: body, as: UTF8.self), url: iURL, importable: parsed.variables),
                      let playlist = media.playlist.media else {
                    problems.append(HLSProblem(line: nil, severity: .error, code: "variant-unavailable", message: "\(iFrames.uri): the I-frame playlist could not be read."))
                    continue
                }
                problems += iFrameProblems(playlist, base: iURL, name: displayName(iURL), timeout: timeout)
            }
        }
        return problems
    }

    /// "hi/index.m3u8": variants are often all called index.m3u8.
    static func displayName(_ url: URL) -> String {
        url.pathComponents.suffix(2).filter { $0 != "/" }.joined(separator: "/")
    }

    private static func named(_ p: HLSProblem, _ name: String) -> HLSProblem {
        var p = p
        p.message = "\(name): \(p.message)"
        return p
    }

    /// An I-frame playlist's entries must each point at a keyframe: the byte range's first access
    /// unit, read from the whole resource (whose PAT and PMT say where the video is).
    private static func iFrameProblems(_ media: HLSMediaPlaylist, base: URL, name: String, timeout: Double) -> [HLSProblem] {
        var resources: [URL: Data] = [:]
        var problems: [HLSProblem] = []
        for (i, s) in media.segments.prefix(2000).enumerated() {
            guard let url = URIReference.resolve(s.uri, against: base) else { continue }
            if resources[url] == nil { resources[url] = fetch(url, timeout: timeout, from: base) ?? Data() }
            guard let offset = s.byteRange?.offset, let data = resources[url] else { continue }
            if TransportStreamScan.startsWithKeyframe(data, at: offset) == false {
                problems.append(HLSProblem(line: nil, severity: .error, code: "iframe-not-keyframe",
                                           message: "\(name): I-frame \(i) (\(MediaLocator.displayName(of: url.absoluteString)) at byte \(offset)) is not a keyframe."))
            }
        }
        return problems
    }

    /// Every segment's size and first frame (up to 2,000 segments: a live window or a VOD).
    private static func measure(_ media: HLSMediaPlaylist, base: URL, timeout: Double) -> [HLSAudit.Segment] {
        media.segments.prefix(2000).map { s in
            guard let url = URIReference.resolve(s.uri, against: base) else {
                return HLSAudit.Segment(uri: s.uri, duration: s.duration, bytes: nil, startsWithKeyframe: nil)
            }
            let body = fetch(url, timeout: timeout, range: s.byteRange, from: base)
            return HLSAudit.Segment(uri: url.absoluteString, duration: s.duration, bytes: body?.count,
                                    startsWithKeyframe: s.key == nil ? body.flatMap { TransportStreamScan.startsWithKeyframe($0) } : nil)
        }
    }

    /// The bytes at `url` (a file or http(s)), at most 64 MiB; nil when it cannot be read.
    /// - Parameter base: the playlist that named `url`. A playlist from the network may not make
    ///   Reel read a local file (one named /etc/passwd went into the bitrate figures), and only a
    ///   regular file is read (a FIFO or /dev/stdin would block the check forever).
    static func fetch(_ url: URL, timeout: Double, range: HLSByteRange? = nil, from base: URL? = nil) -> Data? {
        if url.isFileURL {
            if let base, !base.isFileURL { return nil }
            guard isRegularFile(url.path) else { return nil }
            guard var data = try? Data(contentsOf: url, options: .mappedIfSafe) else { return nil }
            if let range, let offset = range.offset, offset < data.count {
                data = data.subdata(in: offset..<min(data.count, range.end ?? data.count))
            }
            return data
        }
        guard url.scheme == "http" || url.scheme == "https" else { return nil }
        // The gateway's HTTP client (AsyncHTTPClient), not URLSession: Reel links no second HTTP
        // stack (FoundationNetworking would load libcurl and its ~25 libraries at every start).
        var headers: [(name: String, value: String)] = []
        if let range, let offset = range.offset, let end = range.end { headers.append(("Range", "bytes=\(offset)-\(end - 1)")) }
        guard case .data(let data, _) = PlaylistDownload.fetchBlocking(url, maximumBytes: 64 << 20, timeout: timeout, headers: headers) else { return nil }
        return data
    }

    /// A regular file (after symlinks), not a FIFO, device or directory.
    static func isRegularFile(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG
    }
}
