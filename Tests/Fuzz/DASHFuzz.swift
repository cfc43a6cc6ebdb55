import Foundation
#if canImport(ReelCore)
@testable import ReelCore
#endif

/// DASHInspection, DASHSegments, DASHManifest and the gateway's DASHManifestRewriter: any bytes never crash or hang them; an MPD that inspects as
/// ok has a Representation; segment lists stay bounded and every URL is absolute.
enum DASHFuzz {
    static let base = URL(string: "https://origin.example/v/manifest.mpd")!

    static func run(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        let inspected = DASHInspection.inspect(text, uri: base.absoluteString, name: "manifest.mpd")
        if inspected.ok, !inspected.text.contains("kbit/s"), !inspected.text.contains("no bandwidth") {
            fuzzFailure("an MPD inspected as ok without a Representation: \(inspected.text.prefix(200))")
        }
        for rep in DASHSegments.list(text, base: base) {
            if rep.media.count > 100_001 { fuzzFailure("\(rep.media.count) segments in one Representation") }
            for url in rep.media.prefix(16) where url.scheme == nil { fuzzFailure("a relative segment URL: \(url)") }
            if let d = rep.duration, !d.isFinite { fuzzFailure("a duration of \(d)") }
        }
        _ = DASHSegments.expand(text.prefix(256).description, id: "v", bandwidth: 1, number: 1, time: 1)
        // The gateway's rewrite of every MPD it serves.
        _ = try? DASHManifestRewriter.rewrite(text, base: base, directory: { _ in "/g/d/0/" }, manifest: { _ in "/g/m/0" })
        _ = DASHManifest.videoRenditions(text)
    }
}
