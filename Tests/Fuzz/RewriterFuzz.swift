#if REEL_HAVE_HLS
import Foundation
#if canImport(ReelCore)
@testable import ReelCore
#endif

/// The gateway's playlist rewriter (`HLSPlaylistRewriter`, ReelCore), with a gateway-like mapping.
/// Properties: no crash or hang; every fetchable upstream URI (URI line or URI="…" attribute)
/// now points at the gateway; lines without a URI pass through byte for byte; rewriting the
/// output again changes nothing (gateway URLs are kept as they are).
enum RewriterFuzz {
    static let gateway = "http://127.0.0.1:1/g/"
    static let base = URL(string: "https://cdn.example.com/live/master.m3u8")!
    static let rewriter = HLSPlaylistRewriter(baseURL: base) { kind, url in
        if url.host == "127.0.0.1" && url.port == 1 { return nil }  // already the gateway's
        return gateway + kind.rawValue + "/" + String(url.absoluteString.utf8.count)
    }

    static func run(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        let output = rewriter.rewrite(text)
        for ref in output.references {
            if let url = ref.absoluteURL, let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
               !(url.host == "127.0.0.1" && url.port == 1), ref.rewritten == ref.original {
                fuzzFailure("an upstream URI was not routed through the gateway: \(ref.original.debugDescription) (\(ref.kind)) in \(text.debugDescription)")
            }
            if ref.rewritten != ref.original && !ref.rewritten.hasPrefix(gateway) {
                fuzzFailure("a URI was changed to something other than the gateway's: \(ref.original.debugDescription) -> \(ref.rewritten.debugDescription)")
            }
        }
        let before = HLSLine.split(text), after = HLSLine.split(output.text)
        if before.count != after.count {
            fuzzFailure("\(before.count) lines became \(after.count): \(text.debugDescription) -> \(output.text.debugDescription)")
        }
        // A tag line has a URI when the attribute parser finds one (it is lenient about blanks
        // around names, "URI\t=", as the rewriter is: rewriting what hlsdemux2 might not read is
        // harmless, leaving what it reads would send it upstream).
        func hasURIAttribute(_ line: HLSLine) -> Bool {
            guard let (_, value) = line.tag else { return false }
            return HLSAttributeList(parsing: value).attributes.contains { $0.name == "URI" }
        }
        for (a, b) in zip(before, after) where !hasURIAttribute(a) && (a.trimmed.isEmpty || a.trimmed.hasPrefix("#")) {
            if a != b { fuzzFailure("a line without a URI changed: \(a.content.debugDescription) -> \(b.content.debugDescription)") }
        }
        let again = rewriter.rewrite(output.text)
        if again.text != output.text {
            fuzzFailure("rewriting twice changed the playlist: \(output.text.debugDescription) -> \(again.text.debugDescription)")
        }
    }
}
#endif
